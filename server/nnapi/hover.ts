import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { escapeMarkdown, markdownCode } from '../../core/common/escape';
import type { NnapiDocument } from '../../core/nnapi/document';
import { callPath, scopeAtLine, timeRole } from '../../core/nnapi/navigation';
import { NAMES } from '../../core/nnapi/naming';
import type { Scope } from '../../core/nnapi/scope';

const ms = (x: number) => `${x.toFixed(3)} ms`;

/** Frames shown at each end of a call path; the middle of a deep one is counted, not listed. */
export const PATH_ENDS = 5;

// Every name below comes from the file (task, function, mark, tag codes): escaped or in a code
// span, so a mark cannot forge a heading, a table row, a link or an image. Inside the table only
// escaping will do: GFM splits a cell at a `|` even within a code span.

/** A layer or phase code: ours are shown with their name; any other is the file's text. */
function code(c: string | null): string {
  if (c === null) return 'none';
  return Object.hasOwn(NAMES, c) ? `${c} (${NAMES[c]})` : escapeMarkdown(c);
}

const name = (s: Scope) => escapeMarkdown(s.fn || s.mark || '(scope)');

function label(s: Scope): string {
  const extra = s.kind === 'copy' ? ' (copy)' : s.kind === 'intermediate' ? ' (inserted LA)' : s.subtract ? ' \\[SUB\\]' : '';
  return `${name(s)} ${markdownCode(`${s.layer}_${s.phase() ?? '-'}`)}${extra}`;
}

/** The call path as a nested list, its middle cut to "… N more" so a 100 000-deep one stays a few lines. */
function pathLines(path: readonly Scope[]): string[] {
  const item = (s: Scope, depth: number) => `${'  '.repeat(depth)}- ${label(s)}`;
  if (path.length <= 2 * PATH_ENDS + 1) return path.map((s, i) => item(s, i));
  const tail = path.length - PATH_ENDS;
  return [
    ...path.slice(0, PATH_ENDS).map((s, i) => item(s, i)),
    `${'  '.repeat(PATH_ENDS)}- … ${tail - PATH_ENDS} more`,
    ...path.slice(tail).map((s, i) => item(s, PATH_ENDS + 1 + i)),
  ];
}

/** Hover on a `B` row (or the `E` closing it): duration, self time, layer/phase after rewriting, call path. */
export function nnapiHover(model: NnapiDocument, pos: Position): Hover | null {
  const found = scopeAtLine(model.analysis, pos.line);
  if (!found) return null;
  const s = found.scope;
  const t = s.thread;
  const open = s.endLine < 0;
  const role = timeRole(s);
  const ignored = s.layer === 'LX';
  const roleText = ignored ? 'ignored (layer LX: automatic HIDL callback or untagged mark), not counted' : role === 'counted'
    ? `counted in ${escapeMarkdown(s.appPhase)} · ${code(s.layer)} · ${code(s.phase())}`
    : role === 'subtracted'
      ? 'subtracted from its ancestors (marked \\[SUB\\], or moved by the rewriting: its time is counted where the copy sits)'
      : 'added detail: already inside its parent\'s time, not counted again';
  const thread = t
    ? `${escapeMarkdown(t.pid)} (${escapeMarkdown(t.task || '?')}), process ${escapeMarkdown(t.tgid)}${t.isDriver ? ' — driver process' : ''}, run ${t.run + 1}`
    : '?';
  const lines = [
    // Trimmed: `**a **` would not be bold.
    `**${escapeMarkdown((s.fn || s.mark).trim() || '(scope)')}** — NNAPI scope`,
    '',
    `| | |`,
    `|---|---|`,
    `| Duration | ${open ? `${ms(s.elapsedMs())} (never closed: cut at the end of the run)` : ms(s.elapsedMs())} |`,
    `| Self time | ${ignored ? 'n/a' : `${ms(s.time)} (duration less subtracted children)`} |`,
    `| Layer / phase | ${code(s.layer)} / ${code(s.phase())}${s.phaseTag === 'PU' ? ' (PU: takes its parent\'s)' : ''} |`,
    `| Time | ${roleText} |`,
    `| Thread | ${thread} |`,
    '',
    'Call path after rewriting:',
    '',
    ...pathLines(callPath(s)),
  ];
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') } };
}
