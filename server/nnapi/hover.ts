import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { NnapiDocument } from '../../core/nnapi/document';
import { callPath, scopeAtLine, timeRole } from '../../core/nnapi/navigation';
import { describe } from '../../core/nnapi/naming';
import type { Scope } from '../../core/nnapi/scope';

const ms = (x: number) => `${x.toFixed(3)} ms`;

function label(s: Scope): string {
  const name = s.fn || s.mark || '(scope)';
  const extra = s.kind === 'copy' ? ' (copy)' : s.kind === 'intermediate' ? ' (inserted LA)' : s.subtract ? ' [SUB]' : '';
  return `${name} \`${s.layer}_${s.phase() ?? '-'}\`${extra}`;
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
    ? `counted in \`${s.appPhase}\` · ${describe(s.layer)} · ${describe(s.phase())}`
    : role === 'subtracted'
      ? 'subtracted from its ancestors (marked [SUB], or moved by the rewriting: its time is counted where the copy sits)'
      : 'added detail: already inside its parent\'s time, not counted again';
  const lines = [
    `**${s.fn || s.mark}** — NNAPI scope`,
    '',
    `| | |`,
    `|---|---|`,
    `| Duration | ${open ? `${ms(s.elapsedMs())} (never closed: cut at the end of the run)` : ms(s.elapsedMs())} |`,
    `| Self time | ${ignored ? 'n/a' : `${ms(s.time)} (duration less subtracted children)`} |`,
    `| Layer / phase | ${describe(s.layer)} / ${describe(s.phase())}${s.phaseTag === 'PU' ? ' (PU: takes its parent\'s)' : ''} |`,
    `| Time | ${roleText} |`,
    `| Thread | ${t ? `${t.pid} (${t.task || '?'}), process ${t.tgid}${t.isDriver ? ' — driver process' : ''}, run ${t.run + 1}` : '?'} |`,
    '',
    'Call path after rewriting:',
    '',
    ...callPath(s).map((p, i) => `${'  '.repeat(i)}- ${label(p)}`),
  ];
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') } };
}
