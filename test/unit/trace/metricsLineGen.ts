// Random NPU trace lines as files write them for the metrics' tests: the many ways JSON allows
// (number spellings, duplicate keys, escapes, non-ASCII, nesting, ids past 2^53, broken lines),
// with plausible fields on most so that STARTs meet their ENDs and spans form.
import fc from 'fast-check';

const TYPES = ['CMD_ENQUEUE', 'CMD_START', 'CMD_END', 'JOB_ISSUE', 'JOB_DONE', 'TE_START', 'TE_END', 'VE_START', 'VE_END', 'DMA_START', 'DMA_END',
  'DRAM_TX_START', 'DRAM_TX_END', 'NOC_TX_START', 'NOC_TX_END', 'SRAM_ACCESS', 'SRAM_CONFLICT', 'TRACE_META', 'IRQ_EMIT', 'constructor', '__proto__', 'TE_STARTX', 'TE'];

/** A number as a file may spell it. */
export const small = fc.integer({ min: 0, max: 6 });
const numberText = fc.oneof(
  { weight: 8, arbitrary: small.map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) },
  fc.constantFrom('-0', '-1', '0.0', '1.0', '2.50', '1e1', '1E+1', '5e-1', '-2.5e0', '1e400', '83.33', '0.1', '123456789012345', '1234567890123456',
    '9007199254740993', '12345678901234567890', '0.30000000000000004', '3.141592653589793238', '1.7976931348623157e308'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
);
const stringText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('"LN1"', '"MLP"', '"ATTN"', '"DRAM_TO_SRAM"', '"SRAM_TO_DRAM"', '""', '"0"') },
  fc.constantFrom('"M\\u004cP"', '"a\\"b"', '"ünï"', '"tab\\there"', '"\u2028"', '"x\\\\"'),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
);
const valueText = fc.oneof(
  { weight: 6, arbitrary: numberText },
  { weight: 3, arbitrary: stringText },
  fc.constantFrom('true', 'false', 'null', '{}', '[]', '{"a":[1,{"b":null}]}', '[1, 2 ,"x"]', '{"deep":[[[[1]]]]}'),
);
const typeText = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...TYPES).map((t) => `"${t}"`) }, valueText);
const KEYS = ['t_cycle', 't_ns', 'cmd_id', 'job_id', 'tx_id', 'npu_id', 'core_id', 'channel', 'link_id', 'size_bytes', 'direction', 'phase', 'layer_id',
  'bank_id', 'clock_ghz', 'sim_id', 'event_typ', 't_cycles', 'ph\\u0061se'];
const field = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(fc.constantFrom(...KEYS), valueText) },
  fc.tuple(fc.constantFrom('t_cycle', 'cmd_id', 'job_id', 'tx_id'), small.map(String)),
);
const blank = fc.constantFrom('', '', '', ' ', '\t', ' \t ');

/** The fields an event of the metrics mostly has, with plausible values (so pairs match and spans form). */
const plausible = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: fc.constant('@T@') }, small.map(String)), fc.constantFrom('1', '2', '3'), fc.option(fc.constantFrom('83.33', '0.5', '1.25', '7', '100.001', '2.675'), { nil: undefined }),
  fc.option(fc.constantFrom('0', '1', '1.0', '2'), { nil: undefined }), fc.option(fc.constantFrom('16384', '100', '0.5', '1e3'), { nil: undefined }),
  fc.option(fc.constantFrom('"LN1"', '"MLP"', '0', '1.50', 'true'), { nil: undefined }), fc.option(fc.constantFrom('"0"', '1', '2e0', 'null'), { nil: undefined }),
).map(([t, id, ns, core, size, phase, layer]) => {
  const out: [string, string][] = [['t_cycle', t], ['cmd_id', id], ['job_id', id], ['tx_id', id]];
  if (ns !== undefined) out.push(['t_ns', ns]);
  if (core !== undefined) out.push(['core_id', core], ['npu_id', core], ['channel', core], ['link_id', String(id.length + Number(core) + 1)], ['bank_id', core]);
  if (size !== undefined) out.push(['size_bytes', size]);
  if (phase !== undefined) out.push(['phase', phase], ['direction', phase]);
  if (layer !== undefined) out.push(['layer_id', layer]);
  return out;
});

/** One line: usually a flat event object, sometimes damaged. */
export const line = fc.tuple(typeText, fc.array(field, { maxLength: 5 }), plausible, fc.nat(), blank, blank, fc.integer({ min: 0, max: 19 }), fc.nat())
  .map(([type, noise, good, at, b1, b2, damage, cut]) => {
    const fields = [...good, ...noise];
    const pairs = fields.map(([k, v]) => `${b1}"${k}"${b2}:${b1}${v}${b2}`);
    pairs.splice(at % (pairs.length + 1), 0, `"event_type":${type}`);
    const text = `${b1}{${pairs.join(',')}}${b2}`;
    if (damage === 0) return text.slice(0, cut % (text.length + 1));
    if (damage === 1) return `${text},`;
    if (damage === 2) return text.replace('{', '[');
    if (damage === 3) return `\ufeff${text}`;
    return text;
  });

/** Lines in order of time mostly: `@T@` is the line's own cycle, so STARTs meet their ENDs. */
export const trace = fc.array(line, { minLength: 20, maxLength: 60 }).map((ls) => ls.map((l, i) => l.replace('@T@', String(10 * i))));
