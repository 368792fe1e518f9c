import type { TraceDocument } from './document';
import { escapeMarkdown, markdownCode } from '../common/escape';
import { eventSchema } from './eventTypes';
import { groupHover } from './groupHover';
import { commandSummary, legsOf } from './summary';
import { findField, scanLine } from '../json/scanner';
import { tokenAt } from './token';

export interface HoverResult {
  markdown: string;
  line: number;
  start: number;
  end: number;
}

// Cycles beyond 2^53 are rounded by JSON.parse: shown as approximate rather than as wrong digits.
const cyc = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '—' : Number.isSafeInteger(n) || !Number.isInteger(n) ? n.toLocaleString('en-US') : `≈${n.toExponential(3)}`);
const dur = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !Number.isSafeInteger(a) || !Number.isSafeInteger(b) ? '—' : `${(b - a).toLocaleString('en-US')} cycles`);

/** A value from the file as table-cell text: every markup character escaped, '—' when absent. */
function cell(v: unknown): string {
  return v === undefined || v === null ? '—' : escapeMarkdown(String(v));
}

/** At most this many legs are listed in a job or transfer hover; the rest are counted. */
const MAX_LEGS = 50;

/** A string or number field of a leg as cell text; objects and arrays are left out. */
function cellOf(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? cell(v) : undefined;
}

function labelled(label: string, v: unknown): string | undefined {
  const c = cellOf(v);
  return c === undefined ? undefined : `${label} ${c}`;
}

/** A number of a line as written when JSON.parse could not keep its digits (a JS number's own text holds no markup). */
function numberText(text: string, key: string, v: number): string {
  if (Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return String(v);
  const f = findField(scanLine(text), key);
  return f ? escapeMarkdown(text.slice(f.valueStart, f.valueEnd)) : '—';
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
          `**Command ${markdownCode(String(s.cmd))}**${s.cmdType ? ` · ${markdownCode(s.cmdType)}` : ''}`,
          '',
          `| | |`, `|---|---|`,
          `| phase | ${cell(s.phase)} |`, `| layer | ${cell(s.layer)} |`, `| model | ${cell(s.model)} |`,
          `| enqueue | ${cyc(s.enqueue)} |`, `| start | ${cyc(s.start)} |`, `| end | ${cyc(s.end)}${s.status ? ` (${cell(s.status)})` : ''} |`,
          `| latency | ${dur(s.start, s.end)} |`, `| jobs | ${s.jobs} |`, `| DMA bytes | ${s.dmaBytes.toLocaleString('en-US')} |`,
          `| lines | ${s.lines} |`,
          ...(s.enqueue === undefined ? ['', '_No CMD_ENQUEUE for this command._'] : []),
        ].join('\n');
      }
    } else {
      const legs = legsOf(doc, tok.id.key, tok.id.value);
      const name = tok.id.key === 'job_id' ? 'Job' : 'Transfer';
      const rows = legs.slice(0, MAX_LEGS).map((g) => {
        const o = g.fields;
        const cmd = doc.lines[g.line]?.cmd ?? o.cmd_id;
        const extra = [cellOf(o.job_type), cellOf(o.op_type), cellOf(o.direction), labelled('ch', o.channel), labelled('link', o.link_id),
          typeof o.size_bytes === 'number' && Number.isSafeInteger(o.size_bytes) ? `${o.size_bytes.toLocaleString('en-US')} B` : undefined, labelled('cmd', cmd)]
          .filter((x) => x !== undefined).join(' · ');
        return `| ${g.type} | ${cyc(g.start)} | ${cyc(g.end)} | ${dur(g.start, g.end)} | ${extra} |`;
      });
      const more = legs.length > MAX_LEGS ? ['', `_${(legs.length - MAX_LEGS).toLocaleString('en-US')} more legs not shown._`] : [];
      md = [`**${name} ${markdownCode(String(tok.id.value))}** (${tok.id.key})`, '', '| leg | start | end | latency | |', '|---|---|---|---|---|', ...rows, ...more].join('\n');
    }
  } else if (f.key === 'event_type' && l.type) {
    const s = eventSchema(l.type)!;
    const req = s.required.filter((k) => k !== 'event_type');
    md = `**${l.type}** (${s['x-family']})\n\n${s.description}\n\nRequired: ${req.map((k) => markdownCode(k)).join(', ') || '—'}`;
  } else if (f.key === 't_cycle' && typeof l.t === 'number') {
    const exact = Number.isSafeInteger(l.t) ? cyc(l.t) : markdownCode(l.text.slice(f.valueStart, f.valueEnd));
    const parts = [`**t_cycle** ${exact}`];
    const tns = l.obj?.t_ns;
    const clock = doc.index.clockGhz;
    if (typeof tns === 'number') parts.push(`= ${numberText(l.text, 't_ns', tns)} ns (t_ns)`);
    else if (clock && Number.isSafeInteger(l.t)) parts.push(`= ${(l.t / clock).toLocaleString('en-US', { maximumFractionDigits: 3 })} ns at ${clock} GHz`);
    if (l.cmd !== undefined) {
      const s = commandSummary(doc, l.cmd);
      if (s?.start !== undefined && Number.isSafeInteger(s.start) && Number.isSafeInteger(l.t)) parts.push(`\n\n${l.t - s.start >= 0 ? '+' : ''}${(l.t - s.start).toLocaleString('en-US')} cycles from the start of command ${markdownCode(String(l.cmd))}`);
    }
    md = parts.join(' ');
  } else if (l.type) {
    const desc = eventSchema(l.type)?.properties[f.key]?.description;
    if (desc) md = `**${escapeMarkdown(f.key)}**: ${desc}${tok.onValue && f.kind === 'number' ? `\n\nExact value: ${markdownCode(l.text.slice(f.valueStart, f.valueEnd))}` : ''}`;
  }
  // A phase or layer value: its numbers (the key's hover keeps the field's description).
  md = (tok.onValue ? groupHover(doc, f.key, l.obj?.[f.key]) : undefined) ?? md;
  return md ? { markdown: md, line, ...at } : undefined;
}
