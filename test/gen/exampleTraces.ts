import { traceLines } from './genTrace';

/**
 * The two traces in examples/: a valid one (two transformer layers, one token, ~3 200 events) and a
 * short one with one deliberate mistake per diagnostic code, so a newcomer sees the checker at work.
 * Regenerate with `npm run examples`; test/cli/examples.test.ts checks the committed files match.
 */
export const GOOD_EXAMPLE = 'examples/llm-layer.trace.jsonl';
export const FAULTY_EXAMPLE = 'examples/faulty.trace.jsonl';

/** Lines until (and with) the first line matching `stop`, from an unbounded generator run. */
function until(stop: (line: string) => boolean, seed: number, layers: number): string[] {
  const out: string[] = [];
  for (const l of traceLines({ events: Number.MAX_SAFE_INTEGER, seed, layers })) {
    out.push(l);
    if (stop(l)) return out;
  }
  return out;
}

export function goodExample(): string[] {
  return until((l) => l.includes('"TOKEN_COMPLETE"'), 1, 2);
}

export interface Mistake {
  /** 0-based line. */
  line: number;
  code: string;
  /** Default severity of the code (README's table); the examples test checks it against the CLI. */
  severity: 'error' | 'warning';
}

const WARNINGS = new Set(['trace.latency-mismatch', 'trace.time-backwards', 'trace.reported-warning']);

interface Line {
  text: string;
  codes: string[];
}

type Ev = Record<string, unknown> & { event_type: string; t_cycle: number };

/** The faulty example and, for the tests, the diagnostics it must produce. */
export function faultyExample(): { lines: string[]; mistakes: Mistake[] } {
  let irqs = 0;
  const lines: Line[] = until((l) => l.includes('"IRQ_EMIT"') && ++irqs === 2, 2, 1).map((text) => ({ text, codes: [] }));
  const ev = (i: number) => JSON.parse(lines[i].text) as Ev;
  const set = (i: number, e: unknown, ...codes: string[]) => {
    lines[i] = { text: JSON.stringify(e), codes };
  };
  const at = (i: number, text: string, ...codes: string[]) => lines.splice(i, 0, { text, codes });
  // The n-th line (1-based) of a type: SRAM_ACCESS lines pair with nothing, so a mistake in one
  // produces exactly one diagnostic.
  const nth = (type: string, n: number) => {
    let seen = 0;
    const i = lines.findIndex((l) => l.text.includes(`"event_type":"${type}"`) && ++seen === n);
    if (i < 0) throw new Error(`no ${type} #${n} in the base trace`);
    return i;
  };
  const tAt = (i: number) => ev(i).t_cycle;

  let i = nth('SRAM_ACCESS', 2);
  lines[i] = { text: lines[i].text.slice(0, -40), codes: ['trace.invalid-json'] };
  i = nth('SRAM_ACCESS', 4);
  set(i, { ...ev(i), access_type: 'REED' }, 'trace.invalid-value');
  i = nth('SRAM_ACCESS', 6);
  set(i, { ...ev(i), bank_id: String(ev(i).bank_id) }, 'trace.wrong-type');
  i = nth('SRAM_ACCESS', 8);
  const { access_type: _dropped, ...noAccess } = ev(i);
  set(i, noAccess, 'trace.missing-field');
  i = nth('SRAM_ACCESS', 10);
  set(i, { ...ev(i), event_type: 'SRAM_ACCES' }, 'trace.unknown-event-type');
  i = nth('SRAM_ACCESS', 12);
  lines[i] = { text: `[${tAt(i)}, "SRAM_ACCESS"]`, codes: ['trace.not-object'] };
  i = nth('SRAM_ACCESS', 14);
  set(i, { ...ev(i), t_cycle: tAt(i - 1) - 50 }, 'trace.time-backwards');
  i = nth('SRAM_ACCESS', 16);
  set(i, { ...ev(i), cmd_id: 77 }, 'trace.unknown-cmd');
  i = nth('TE_END', 3);
  set(i, { ...ev(i), latency_cycles: (ev(i).latency_cycles as number) + 8 }, 'trace.latency-mismatch');
  i = nth('NOC_TX_END', 20);
  lines.splice(i, 1);
  const openNoc = nth('NOC_TX_START', 20);
  lines[openNoc].codes.push('trace.unmatched-start');

  i = nth('JOB_DONE', 22) + 1;
  const t = tAt(i - 1);
  at(i, JSON.stringify({ event_type: 'ERROR', t_cycle: t, component: 'DMA', code: 'ADDR_ALIGN', msg: 'unaligned DMA source address', cmd_id: 2 }), 'trace.reported-error');
  at(i + 1, JSON.stringify({ event_type: 'WARN', t_cycle: t, component: 'TE', code: 'LOW_UTIL', msg: 'TE utilization below 50% in last 1000 cycles', layer_id: 0 }), 'trace.reported-warning');
  at(i + 2, JSON.stringify({ event_type: 'DMA_END', t_cycle: t, tx_id: 9999, channel: 0, cmd_id: 2 }), 'trace.unmatched-end');
  at(i + 3, JSON.stringify({ event_type: 'CMD_ENQUEUE', t_cycle: t, cmd_id: 1, cmd_type: 'MATMUL', source: 'MMIO' }), 'trace.duplicate-id');
  at(i + 4, JSON.stringify({ event_type: 'TRACE_META', version: '1.0' }), 'trace.meta-not-first');
  at(i + 5, JSON.stringify({ event_type: 'DRAM_TX_START', t_cycle: t, tx_id: 9000, channel: 2, size_bytes: 4096, cmd_id: 2 }));
  // An END earlier than its START is necessarily earlier than the line before it, too.
  at(i + 6, JSON.stringify({ event_type: 'DRAM_TX_END', t_cycle: t - 5, tx_id: 9000, channel: 2 }), 'trace.end-before-start', 'trace.time-backwards');
  const mistakes = lines.flatMap((l, line) => l.codes.map((code): Mistake => ({ line, code, severity: WARNINGS.has(code) ? 'warning' : 'error' })));
  return { lines: lines.map((l) => l.text), mistakes };
}
