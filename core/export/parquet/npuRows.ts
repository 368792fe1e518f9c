import { findField, scanLine } from '../../json/scanner';
import type { Id } from '../../trace/line';
import { attr, id as readId, int, num, str } from '../../trace/flatEvent';
import { END, K_CMD, K_DMA, K_DRAM, K_JOB, K_NOC, PAIR_KEY, START, T_ENQUEUE, typeCode } from '../../trace/metrics/eventFields';
import { EVENTS_COLUMNS } from './schema';
import { ROW_GROUP_ROWS, Table, type RowGroupSink } from './table';


const KIND_NAMES = ['CMD', 'JOB', 'TE', 'VE', 'DMA', 'DRAM', 'NOC'];

/** The keys with an own column in `events`; a value that does not fit its column stays in `fields`. */
const TYPED = new Set(EVENTS_COLUMNS.map((c) => c.name).filter((n) => n !== 'run' && n !== 'line' && n !== 'fields'));

interface OpenSpan {
  start: number;
  line: number;
  npu: number;
  core: number;
  channel: number | undefined;
  size: number | undefined;
  direction: string | undefined;
  cmd: Id | undefined;
}

interface Command {
  cmdType: string | null;
  npu: number;
  core: number;
  tenant: number | null;
  model: string | null;
  phase: string | undefined;
  layer: string | undefined;
  enqueue: number | undefined;
  enqueueLine: number | null;
  jobs: number;
  dmaBytes: number;
  ended: boolean;
}

const i32 = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff ? v : null);
/** A cycle or byte count as int64: an integer the double holds exactly, else null. */
const i64n = (v: number | undefined): bigint | null => (v !== undefined && Number.isSafeInteger(v) ? BigInt(v) : null);
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
/** An id as int64, exact; null beyond int64 or when its source digits are not an integer BigInt reads (an exponent). */
const i64id = (v: Id | undefined): bigint | null => {
  if (v === undefined) return null;
  let b: bigint;
  try {
    b = BigInt(v);
  } catch {
    return null;
  }
  return b >= I64_MIN && b <= I64_MAX ? b : null;
};

/**
 * Turns the lines of an NPU trace into the rows of the `events`, `spans` and `commands` tables
 * (schema.ts), handed to `sink` a row group at a time while the lines come by, so the file is never
 * held whole. Pairs START and END as `npu-trace stats` does (one namespace of ids per kind), so
 * `SUM(dur)` of the spans and the commands' latencies add up to its numbers. Only the STARTs still
 * open and the commands seen are kept between lines.
 */
export class NpuParquetRows {
  private readonly events: Table;
  private readonly spans: Table;
  private readonly commands: Table;
  private readonly open: Map<Id, OpenSpan>[] = KIND_NAMES.map(() => new Map());
  private readonly cmds = new Map<Id, Command>();
  private text = '';
  private readonly exactId = (key: string): Id | undefined => {
    const f = findField(scanLine(this.text), key);
    return f ? this.text.slice(f.valueStart, f.valueEnd) : undefined;
  };
  lines = 0;

  constructor(private readonly run: string, sink: RowGroupSink, groupRows = ROW_GROUP_ROWS) {
    this.events = new Table('events', sink, groupRows);
    this.spans = new Table('spans', sink, groupRows);
    this.commands = new Table('commands', sink, groupRows);
  }

  /** One line of the file; `line` is 1-based. Blank lines have no row. */
  addLine(text: string, line: number): void {
    if (text.trim() === '') return;
    this.lines++;
    let o: unknown;
    try {
      o = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      o = undefined;
    }
    const ln = BigInt(line);
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      this.events.add([this.run, ln]);
      return;
    }
    this.text = text;
    const r = o as Record<string, unknown>;
    // Null prototype: a key `__proto__` is just another field.
    const rest: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    let hasRest = false;
    for (const k in r) {
      if (!TYPED.has(k)) {
        rest[k] = r[k];
        hasRest = true;
      }
    }
    const keep = <T>(k: string, v: T | null): T | null => {
      if (v === null && r[k] !== undefined && r[k] !== null) {
        // An integer a double cannot hold keeps its source digits (as a JSON string) rather than a rounded number.
        const n = r[k];
        rest[k] = typeof n === 'number' && Number.isInteger(n) && !Number.isSafeInteger(n) ? this.exactId(k) ?? n : n;
        hasRest = true;
      }
      return v;
    };
    const t = num(r.t_cycle);
    const tExact = Number.isSafeInteger(t) ? BigInt(t!) : Number.isInteger(t) ? i64id(this.exactId('t_cycle')) : null;
    const ids = ['cmd_id', 'job_id', 'tx_id'].map((k) => keep(k, i64id(readId(r[k], k, this.exactId))));
    this.events.add([
      this.run, ln, keep('event_type', str(r.event_type) ?? null), keep('t_cycle', tExact), keep('t_ns', num(r.t_ns) ?? null),
      keep('sim_id', str(r.sim_id) ?? null), keep('npu_id', i32(r.npu_id)), keep('core_id', i32(r.core_id)), keep('tenant_id', i32(r.tenant_id)),
      keep('thread_id', i32(r.thread_id)), ids[0], ids[1], ids[2], keep('phase', str(r.phase) ?? null), keep('layer_id', attr(r.layer_id) ?? null),
      hasRest ? JSON.stringify(rest) : null,
    ]);
    if (t !== undefined) this.pair(r, typeCode(r.event_type), t, line);
  }

  /** Hands over the rows still buffered (a START never closed has no span row). */
  finish(): void {
    this.events.flush();
    this.spans.flush();
    this.commands.flush();
  }

  private pair(r: Record<string, unknown>, type: number, t: number, line: number): void {
    const cmdId = readId(r.cmd_id, 'cmd_id', this.exactId);
    if (type === T_ENQUEUE) {
      if (cmdId !== undefined) this.cmds.set(cmdId, this.command(r, t, line));
      return;
    }
    if (type < START) return;
    const kind = type & 7;
    const key = kind === K_CMD ? 'cmd_id' : PAIR_KEY[kind] === 'job' ? 'job_id' : 'tx_id';
    const id = kind === K_CMD ? cmdId : readId(r[key], key, this.exactId);
    if (id === undefined) return;
    const m = this.open[kind];
    if (type < END) {
      const cmd = cmdId !== undefined ? this.cmds.get(cmdId) : undefined;
      // A second START of an open id replaces the first, which is never closed (stats counts it unpaired).
      m.set(id, {
        start: t, line, npu: int(r.npu_id) ?? cmd?.npu ?? 0, core: int(r.core_id) ?? cmd?.core ?? 0,
        channel: int(kind === K_NOC ? r.link_id : r.channel), size: num(r.size_bytes), direction: kind === K_DMA ? str(r.direction) : undefined, cmd: cmdId,
      });
      if (kind === K_CMD && !cmd) this.cmds.set(id, this.command(r, undefined, null));
      return;
    }
    const o = m.get(id);
    if (!o) return;
    m.delete(id);
    if (t < o.start) return; // an END before its START is a broken pair, as stats counts it
    const spanCmd = o.cmd ?? cmdId;
    const cmd = spanCmd !== undefined ? this.cmds.get(spanCmd) : undefined;
    const size = o.size ?? num(r.size_bytes);
    const status = str(r.status) ?? null;
    const resource = kind <= 3 ? `npu${o.npu}.core${o.core}` : o.channel === undefined ? null : kind === K_DMA ? `dma.ch${o.channel}` : kind === K_DRAM ? `dram.ch${o.channel}` : `noc.link${o.channel}`;
    this.spans.add([
      this.run, KIND_NAMES[kind], i64id(id), o.npu, o.core, resource, i64n(o.start), i64n(t), i64n(t - o.start), i64id(spanCmd),
      cmd?.phase ?? null, cmd?.layer ?? null, i64n(size), o.direction ?? null, status, BigInt(o.line), BigInt(line),
    ]);
    if (!cmd || cmd.ended) return;
    if (kind === K_JOB) cmd.jobs++;
    else if (kind === K_DMA && size !== undefined) cmd.dmaBytes += size;
    else if (kind === K_CMD) {
      cmd.ended = true;
      const enq = cmd.enqueue;
      this.commands.add([
        this.run, i64id(id), cmd.cmdType, cmd.npu, cmd.core, cmd.tenant, cmd.model, cmd.phase ?? null, cmd.layer ?? null, i64n(enq), i64n(o.start), i64n(t),
        enq === undefined ? null : i64n(o.start - enq), i64n(t - o.start), status, cmd.jobs, i64n(cmd.dmaBytes), cmd.enqueueLine === null ? null : BigInt(cmd.enqueueLine), BigInt(line),
      ]);
    }
  }

  private command(r: Record<string, unknown>, enqueue: number | undefined, line: number | null): Command {
    return {
      cmdType: str(r.cmd_type) ?? null, npu: int(r.npu_id) ?? 0, core: int(r.core_id) ?? 0, tenant: i32(r.tenant_id), model: str(r.model_name) ?? null,
      phase: attr(r.phase), layer: attr(r.layer_id), enqueue, enqueueLine: line, jobs: 0, dmaBytes: 0, ended: false,
    };
  }
}
