import fc from 'fast-check';

/**
 * Trace lines for property tests: mostly well-formed events over a tiny id space (so pairs,
 * duplicates and unknown commands actually happen), plus broken and odd lines.
 */
const TYPES = ['CMD_ENQUEUE', 'CMD_START', 'CMD_END', 'JOB_ISSUE', 'JOB_DONE', 'DMA_START', 'DMA_END', 'TE_START', 'TE_END', 'VE_START', 'VE_END',
  'SRAM_ACCESS', 'SRAM_CONFLICT', 'DRAM_TX_START', 'DRAM_TX_END', 'NOC_TX_START', 'NOC_TX_END', 'IRQ_EMIT', 'TOKEN_COMPLETE', 'ERROR', 'WARN', 'TRACE_META'] as const;

export const eventLine: fc.Arbitrary<string> = fc.record({
  type: fc.constantFrom(...TYPES, 'CMD_STRAT'),
  t: fc.integer({ min: 0, max: 30 }),
  cmd: fc.integer({ min: 0, max: 3 }),
  job: fc.integer({ min: 0, max: 3 }),
  tx: fc.integer({ min: 0, max: 3 }),
  lat: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  drop: fc.constantFrom('', 'cmd_id', 'job_id', 'tx_id', 't_cycle', 'channel'),
  status: fc.constantFrom('OK', 'ERROR', 'FAIL'),
}).map(({ type, t, cmd, job, tx, lat, drop, status }) => {
  const o: Record<string, unknown> = { event_type: type, t_cycle: t, cmd_id: cmd, job_id: job, tx_id: tx, channel: 0, link_id: 0,
    cmd_type: 'MATMUL', bank_id: 0, num_requests: 2, access_type: 'READ', token: 1, component: 'DMA', code: 'X', msg: 'm', version: '1.0', status };
  if (lat !== undefined) o.latency_cycles = lat;
  if (drop) delete o[drop];
  return JSON.stringify(o);
});

export const oddLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '   ', '{', '}', '[1,2]', 'null', '"str"', '{"event_type":5}', '{"t_cycle":1}', '{"event_type":"IRQ_EMIT","t_cycle":NaN}',
    '\uFEFF{"event_type":"IRQ_EMIT","t_cycle":1}', '{"event_type":"CMD_START","t_cycle":1,"cmd_id":18446744073709551615}', '\u0000\uFFFD'),
  fc.string({ maxLength: 20 }),
);

export const traceLine: fc.Arbitrary<string> = fc.oneof({ weight: 5, arbitrary: eventLine }, { weight: 1, arbitrary: oddLine });
