import { KIND } from '../core/timeline/model';

/**
 * Colours read from VS Code's theme variables, so light, dark and high-contrast themes all work.
 * Re-read when the body's theme class changes.
 */
export interface Theme {
  background: string;
  foreground: string;
  muted: string;
  grid: string;
  headerBackground: string;
  selection: string;
  focus: string;
  error: string;
  warning: string;
  rangeFill: string;
  /** Set in high-contrast themes: every span gets an outline. */
  contrastBorder: string | undefined;
  /** Categorical palette for colour-by. */
  palette: string[];
  kind: string[];
  /** Text colour readable on each palette / kind colour. */
  font: string;
}

function raw(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

export function readTheme(): Theme {
  const s = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => solid(raw(s, name, fallback));
  const red = v('--vscode-charts-red', '#f14c4c');
  const blue = v('--vscode-charts-blue', '#3794ff');
  const yellow = v('--vscode-charts-yellow', '#cca700');
  const orange = v('--vscode-charts-orange', '#d18616');
  const green = v('--vscode-charts-green', '#89d185');
  const purple = v('--vscode-charts-purple', '#b180d7');
  const fg = v('--vscode-editor-foreground', '#cccccc');
  const kind: string[] = [];
  kind[KIND.command] = blue; kind[KIND.job] = purple; kind[KIND.te] = green; kind[KIND.ve] = orange;
  kind[KIND.dma] = yellow; kind[KIND.dram] = purple; kind[KIND.noc] = blue; kind[KIND.irq] = purple;
  kind[KIND.token] = green; kind[KIND.sramConflict] = orange; kind[KIND.error] = red; kind[KIND.warn] = yellow;
  // Red is for problems only: a format's plain instants (PyTorch's [memory] marks) are not errors.
  kind[KIND.slice] = blue; kind[KIND.marker] = fg;
  const contrast = s.getPropertyValue('--vscode-contrastBorder').trim();
  return {
    background: v('--vscode-editor-background', '#1e1e1e'),
    foreground: fg,
    muted: v('--vscode-descriptionForeground', '#999999'),
    grid: v('--vscode-editorRuler-foreground', v('--vscode-panel-border', '#80808059')),
    headerBackground: v('--vscode-sideBar-background', v('--vscode-editor-background', '#252526')),
    selection: v('--vscode-editor-selectionBackground', '#264f78'),
    focus: v('--vscode-focusBorder', '#007fd4'),
    error: v('--vscode-editorError-foreground', red),
    warning: v('--vscode-editorWarning-foreground', yellow),
    rangeFill: v('--vscode-editor-findRangeHighlightBackground', '#3a3d4166'),
    contrastBorder: contrast || undefined,
    // No red among the category colours: red marks problems (a failed or broken item, an error).
    palette: [blue, green, orange, purple, yellow, mix(blue, green), mix(orange, purple), mix(green, yellow), mix(green, purple), mix(blue, purple), mix(orange, yellow), mix(blue, yellow)],
    kind,
    font: v('--vscode-editor-background', '#1e1e1e'),
  };
}

let probe: HTMLElement | undefined;

/** Any CSS colour as [r, g, b, a] (0..255, alpha 0..1), via the browser's own parser. */
function rgba(value: string): [number, number, number, number] {
  if (!probe) {
    probe = document.createElement('span');
    probe.style.display = 'none';
    document.body.append(probe);
  }
  probe.style.color = '';
  probe.style.color = value;
  const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(probe).color);
  const p = m ? m[1].split(/[ ,/]+/).filter(Boolean).map(Number) : [128, 128, 128, 1];
  return [p[0] ?? 128, p[1] ?? 128, p[2] ?? 128, p[3] ?? 1];
}

/** A colour between two theme colours, so the palette grows without leaving the theme. */
function mix(a: string, b: string): string {
  const x = rgba(a), y = rgba(b);
  return `rgb(${Math.round((x[0] + y[0]) / 2)}, ${Math.round((x[1] + y[1]) / 2)}, ${Math.round((x[2] + y[2]) / 2)})`;
}

/** Canvas needs plain colours: resolve theme values (which may be any CSS colour) once. */
function solid(value: string): string {
  const c = rgba(value);
  return c[3] >= 1 ? `rgb(${c[0]}, ${c[1]}, ${c[2]})` : `rgba(${c[0]}, ${c[1]}, ${c[2]}, ${c[3]})`;
}
