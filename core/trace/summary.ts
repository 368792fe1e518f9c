import type { TraceDocument } from './document';
import type { Id } from './line';

export interface CommandSummary {
  cmd: Id;
  cmdType?: string;
  phase?: string;
  layer?: string;
  model?: string;
  enqueue?: number;
  start?: number;
  end?: number;
  status?: string;
  jobs: number;
  dmaBytes: number;
  lines: number;
}

export interface SpanInfo {
  type: string;
  start?: number;
  end?: number;
  line: number;
  fields: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** What one command did, from the lines the index lists for it. */
export function commandSummary(doc: TraceDocument, cmd: Id): CommandSummary | undefined {
  const lines = doc.index.linesOf('cmd_id', cmd);
  if (!lines.length) return undefined;
  const s: CommandSummary = { cmd, jobs: 0, dmaBytes: 0, lines: lines.length };
  for (const i of lines) {
    const l = doc.lines[i];
    const o = l.obj!;
    switch (l.type) {
      case 'CMD_ENQUEUE':
        s.enqueue ??= l.t;
        s.cmdType ??= str(o.cmd_type);
        s.phase ??= str(o.phase);
        s.layer ??= str(o.layer_id ?? o.block_id);
        s.model ??= str(o.model_name);
        break;
      case 'CMD_START':
        s.start ??= l.t;
        break;
      case 'CMD_END':
        s.end = l.t;
        s.status = str(o.status);
        break;
      case 'JOB_ISSUE':
        s.jobs++;
        break;
      case 'DMA_START':
        if (typeof o.size_bytes === 'number') s.dmaBytes += o.size_bytes;
        break;
    }
  }
  return s;
}

/** The START/END (or ISSUE/DONE) legs carrying an id, e.g. a tx_id's DMA, DRAM and NoC legs. */
export function legsOf(doc: TraceDocument, key: 'job_id' | 'tx_id', id: Id): SpanInfo[] {
  const out: SpanInfo[] = [];
  const open = new Map<string, SpanInfo>();
  for (const i of doc.index.linesOf(key, id)) {
    const l = doc.lines[i];
    const t = l.type;
    if (!t) continue;
    const m = /^(.*)_(START|ISSUE|END|DONE)$/.exec(t);
    if (!m) continue;
    const family = m[1];
    if (m[2] === 'START' || m[2] === 'ISSUE') {
      const span: SpanInfo = { type: family, start: l.t, line: i, fields: { ...l.obj } };
      open.set(family, span);
      out.push(span);
    } else {
      const span = open.get(family);
      if (span) {
        span.end = l.t;
        Object.assign(span.fields, l.obj);
        open.delete(family);
      } else out.push({ type: family, end: l.t, line: i, fields: { ...l.obj } });
    }
  }
  return out;
}
