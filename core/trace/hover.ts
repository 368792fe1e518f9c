import type { TraceDocument } from './document';
import { eventSchema } from './eventTypes';
import { commandSummary, legsOf } from './summary';
import { tokenAt } from './token';

export interface HoverResult {
  markdown: string;
  line: number;
  start: number;
  end: number;
}

const cyc = (n: number | undefined) => (n === undefined ? '—' : `${n.toLocaleString('en-US')}`);
const dur = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '—' : `${(b - a).toLocaleString('en-US')} cycles`);

function code(s: string): string {
  return '`' + s.replace(/`/g, "'") + '`';
}

/** Hover text for the key or value under the cursor, as Markdown. */
export function hoverAt(doc: TraceDocument, line: number, ch: number): HoverResult | undefined {
  const tok = tokenAt(doc, line, ch);
  if (!tok) return undefined;
  const l = doc.lines[line];
  const f = tok.field;
  const at = tok.onValue ? { start: f.valueStart, end: f.valueEnd } : { start: f.keyStart, end: f.keyEnd };
  let md: string | undefined;
  if (tok.id && tok.onValue) {
    if (tok.id.key === 'cmd_id') {
      const s = commandSummary(doc, tok.id.value);
      if (s) {
        md = [
          `**Command ${code(String(s.cmd))}**${s.cmdType ? ` · ${code(s.cmdType)}` : ''}`,
          '',
          `| | |`, `|---|---|`,
          `| phase | ${s.phase ?? '—'} |`, `| layer | ${s.layer ?? '—'} |`, `| model | ${s.model ?? '—'} |`,
          `| enqueue | ${cyc(s.enqueue)} |`, `| start | ${cyc(s.start)} |`, `| end | ${cyc(s.end)}${s.status ? ` (${s.status})` : ''} |`,
          `| latency | ${dur(s.start, s.end)} |`, `| jobs | ${s.jobs} |`, `| DMA bytes | ${s.dmaBytes.toLocaleString('en-US')} |`,
          `| lines | ${s.lines} |`,
          ...(s.enqueue === undefined ? ['', '_No CMD_ENQUEUE for this command._'] : []),
        ].join('\n');
      }
    } else {
      const legs = legsOf(doc, tok.id.key, tok.id.value);
      const name = tok.id.key === 'job_id' ? 'Job' : 'Transfer';
      const rows = legs.map((g) => {
        const o = g.fields;
        const extra = [o.job_type, o.op_type, o.direction, o.channel !== undefined ? `ch ${o.channel}` : undefined, o.link_id !== undefined ? `link ${o.link_id}` : undefined,
          typeof o.size_bytes === 'number' ? `${o.size_bytes.toLocaleString('en-US')} B` : undefined, o.cmd_id !== undefined ? `cmd ${o.cmd_id}` : undefined]
          .filter((x) => x !== undefined && x !== null).join(' · ');
        return `| ${g.type} | ${cyc(g.start)} | ${cyc(g.end)} | ${dur(g.start, g.end)} | ${extra} |`;
      });
      md = [`**${name} ${code(String(tok.id.value))}** (${tok.id.key})`, '', '| leg | start | end | latency | |', '|---|---|---|---|---|', ...rows].join('\n');
    }
  } else if (f.key === 'event_type' && l.type) {
    const s = eventSchema(l.type)!;
    const req = s.required.filter((k) => k !== 'event_type');
    md = `**${l.type}** (${s['x-family']})\n\n${s.description}\n\nRequired: ${req.map(code).join(', ') || '—'}`;
  } else if (f.key === 't_cycle' && typeof l.t === 'number') {
    const parts = [`**t_cycle** ${cyc(l.t)}`];
    const tns = l.obj?.t_ns;
    const clock = doc.index.clockGhz;
    if (typeof tns === 'number') parts.push(`= ${tns} ns (t_ns)`);
    else if (clock) parts.push(`= ${(l.t / clock).toLocaleString('en-US', { maximumFractionDigits: 3 })} ns at ${clock} GHz`);
    if (l.cmd !== undefined) {
      const s = commandSummary(doc, l.cmd);
      if (s?.start !== undefined) parts.push(`\n\n${l.t - s.start >= 0 ? '+' : ''}${(l.t - s.start).toLocaleString('en-US')} cycles from the start of command ${code(String(l.cmd))}`);
    }
    md = parts.join(' ');
  } else if (l.type) {
    const desc = eventSchema(l.type)?.properties[f.key]?.description;
    if (desc) md = `**${f.key}**: ${desc}${tok.onValue && f.kind === 'number' ? `\n\nExact value: ${code(l.text.slice(f.valueStart, f.valueEnd))}` : ''}`;
  }
  return md ? { markdown: md, line, ...at } : undefined;
}
