/**
 * The toolbar: the only module that uses @vscode/webview-ui-toolkit, so replacing the toolkit
 * (it is deprecated upstream) touches this file alone. Everything is a native-focusable control:
 * Tab moves through it, Enter/Space activate, Enter in search goes to the next match.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDropdown, vsCodeOption, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import { ATTRS } from '../core/timeline/model';

provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField());

export interface ToolbarHandlers {
  fit(): void;
  /** -1 = by resource kind, else an index into ATTRS. */
  colourBy(attr: number): void;
  /** Filter attribute (index into ATTRS) and value, or undefined for no filter. */
  filter(f: { attr: number; value: string } | undefined): void;
  /** Attribute chosen for filtering: return its values to offer. */
  valuesOf(attr: number): string[];
  search(query: string): void;
  step(dir: 1 | -1): void;
  /** Show the Summary tab (true) or the timeline. */
  summary(show: boolean): void;
  /** Draw every flow in view (true), or the selection's only. */
  flows(all: boolean): void;
  /** Export the file as Chrome Trace JSON (the host asks where). */
  exportChromeTrace(): void;
  /** Export the file as Parquet tables (the host asks for a folder). */
  exportParquet(): void;
  /** Compare the file with another run (the host asks which). */
  compareWith(): void;
  /** Pin the file as its format's baseline (true), or unpin it. */
  pinBaseline(pin: boolean): void;
}

export interface Toolbar {
  /** Shows the colour-by choice the view opened with. */
  setColourBy(attr: number): void;
  setMatches(text: string): void;
  setStatus(text: string): void;
  focusSearch(): void;
  /** Shows a filter set from elsewhere (a Summary row) in the dropdowns. */
  setFilter(attr: number, value: string): void;
  /** Marks which tab is shown. */
  setSummaryShown(shown: boolean): void;
  /** The model's own names of the ATTRS slots ('' unused): the colour and filter menus offer those. */
  setAttrNames(names: readonly string[]): void;
  /** Shows the Flows button (a model with flows) and which flows it draws. */
  setFlows(has: boolean, all: boolean): void;
  /** Shows the Pin button and which file is the format's baseline ('' none; `self`: this one). */
  setBaseline(name: string, self: boolean): void;
}

type El = HTMLElement & { value: string };

function el(tag: string, attrs: Record<string, string> = {}, text?: string): El {
  const e = document.createElement(tag) as El;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function dropdown(label: string, options: [string, string][]): El {
  const d = el('vscode-dropdown', { 'aria-label': label, title: label });
  for (const [value, text] of options) d.append(el('vscode-option', { value }, text));
  return d;
}

export function createToolbar(host: HTMLElement, h: ToolbarHandlers): Toolbar {
  const fit = el('vscode-button', { appearance: 'secondary', title: 'Fit all (F)', 'aria-label': 'Fit all' }, 'Fit all');
  fit.addEventListener('click', () => h.fit());

  const colour = dropdown('Colour by', []);
  colour.addEventListener('change', () => h.colourBy(Number(colour.value)));
  const filterAttr = dropdown('Filter by', []);
  let attrKey = '';
  // The slots a format uses, under its names; the value index stays the ATTRS slot.
  const setAttrNames = (names: readonly string[]) => {
    const key = names.join('\u0001');
    if (key === attrKey) return;
    attrKey = key;
    const used = names.flatMap((a, k) => (a ? [[String(k), a] as [string, string]] : []));
    colour.replaceChildren(...[['-1', 'colour: resource'], ...used.map(([v, t]) => [v, `colour: ${t}`])].map(([v, t]) => el('vscode-option', { value: v }, t)));
    filterAttr.replaceChildren(...[['-1', 'filter: none'], ...used.map(([v, t]) => [v, `filter: ${t}`])].map(([v, t]) => el('vscode-option', { value: v }, t)));
  };
  setAttrNames(ATTRS);

  const filterValue = dropdown('Filter value', [['', '(all)']]);
  filterValue.setAttribute('disabled', '');
  const fillValues = (a: number) => {
    filterValue.replaceChildren(el('vscode-option', { value: '' }, '(all)'));
    if (a < 0) filterValue.setAttribute('disabled', '');
    else {
      filterValue.removeAttribute('disabled');
      // A few hundred values are enough to pick from; more would make the list unusable anyway.
      for (const v of h.valuesOf(a).slice(0, 500)) filterValue.append(el('vscode-option', { value: v }, v));
    }
  };
  filterAttr.addEventListener('change', () => {
    fillValues(Number(filterAttr.value));
    filterValue.value = '';
    h.filter(undefined);
  });
  filterValue.addEventListener('change', () => {
    const a = Number(filterAttr.value);
    h.filter(a >= 0 && filterValue.value !== '' ? { attr: a, value: filterValue.value } : undefined);
  });

  const search = el('vscode-text-field', { placeholder: 'Search id or type', 'aria-label': 'Search events by id or type', size: '18' });
  search.addEventListener('input', () => h.search(search.value));
  search.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key !== 'Enter') return;
    e.preventDefault();
    h.step((e as KeyboardEvent).shiftKey ? -1 : 1);
  });
  const prev = el('vscode-button', { appearance: 'icon', title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match' }, '↑');
  const next = el('vscode-button', { appearance: 'icon', title: 'Next match (Enter)', 'aria-label': 'Next match' }, '↓');
  prev.addEventListener('click', () => h.step(-1));
  next.addEventListener('click', () => h.step(1));
  const matches = el('span', { class: 'matches', 'aria-live': 'polite' });
  const status = el('span', { class: 'status' });
  const summary = el('vscode-button', { appearance: 'secondary', title: 'Summary: where the cycles went', 'aria-label': 'Summary', 'aria-pressed': 'false', id: 'summaryTab' }, 'Summary');
  let summaryShown = false;
  summary.addEventListener('click', () => h.summary(!summaryShown));

  const flows = el('vscode-button', { appearance: 'secondary', id: 'flowsToggle', title: 'Draw the flows of the selected slice, its ancestors and descendants, or every flow in view', 'aria-pressed': 'false' }, 'Flows: selection');
  flows.hidden = true;
  let allFlows = false;
  const showFlows = (all: boolean) => {
    allFlows = all;
    flows.textContent = all ? 'Flows: all' : 'Flows: selection';
    flows.setAttribute('aria-pressed', String(all));
  };
  flows.addEventListener('click', () => { showFlows(!allFlows); h.flows(allFlows); });

  const exportButton = el('vscode-button', { appearance: 'secondary', title: 'Export as Chrome Trace (Perfetto)', 'aria-label': 'Export as Chrome Trace (Perfetto)', id: 'exportChromeTrace' }, 'Export…');
  exportButton.addEventListener('click', () => h.exportChromeTrace());
  const parquetButton = el('vscode-button', { appearance: 'secondary', title: 'Export as Parquet (pandas, polars, DuckDB)', 'aria-label': 'Export as Parquet', id: 'exportParquet' }, 'Parquet…');
  parquetButton.addEventListener('click', () => h.exportParquet());
  const compareButton = el('vscode-button', { appearance: 'secondary', title: 'Compare with another run of this format (Diff view)', 'aria-label': 'Compare with…', id: 'compareWith' }, 'Compare…');
  compareButton.addEventListener('click', () => h.compareWith());

  // Shown once the host says which baseline is pinned (the desktop only: comparing reads files in a worker thread).
  const pinButton = el('vscode-button', { appearance: 'secondary', id: 'pinBaseline' }, 'Pin baseline');
  pinButton.hidden = true;
  let isBaseline = false;
  pinButton.addEventListener('click', () => h.pinBaseline(!isBaseline));
  const baselineLabel = el('span', { class: 'baseline', id: 'baselineLabel' });

  host.replaceChildren(summary, fit, colour, filterAttr, filterValue, flows, search, prev, next, exportButton, parquetButton, compareButton, pinButton, matches, baselineLabel, status);
  return {
    setColourBy: (a) => (colour.value = String(a)),
    setMatches: (t) => (matches.textContent = t),
    setStatus: (t) => (status.textContent = t),
    focusSearch: () => search.focus(),
    setFilter: (a, v) => {
      filterAttr.value = String(a);
      fillValues(a);
      filterValue.value = v;
      // The dropdown learns of new options on slotchange, after this task: set the value again then.
      setTimeout(() => (filterValue.value = v));
    },
    setAttrNames,
    setFlows: (has, all) => {
      flows.hidden = !has;
      showFlows(all);
    },
    setBaseline: (name, self) => {
      isBaseline = self;
      pinButton.hidden = false;
      pinButton.textContent = self ? 'Unpin baseline' : 'Pin baseline';
      const what = self ? 'Unpin this file: no baseline for its format' : `Pin this file as the baseline of its format: the Summary of other runs shows their deltas against it${name ? ` (replaces ${name})` : ''}`;
      pinButton.setAttribute('title', what);
      pinButton.setAttribute('aria-label', self ? 'Unpin baseline' : 'Pin as baseline');
      baselineLabel.textContent = self ? 'the pinned baseline' : name ? `baseline: ${name}` : '';
      baselineLabel.title = self ? 'This file is its format\'s baseline' : name ? `The Summary shows the deltas against ${name}` : '';
    },
    setSummaryShown: (shown) => {
      summaryShown = shown;
      summary.textContent = shown ? 'Timeline' : 'Summary';
      summary.setAttribute('aria-pressed', String(shown));
    },
  };
}
