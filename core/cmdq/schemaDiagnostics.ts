import type { ErrorObject } from 'ajv';
import { describeValue, pointer, quoteString, schemaProblem, schemaProblemKind, typeName } from '../common/schemaMessages';
import { reportUnlistedDeps } from './checks';
import { depRange, valueRange } from './fields';
import type { CmdqEntry, ParsedCmdq } from './model';
import { opcodeSchema, suggestOpcode } from './opcodes';
import { COMMON_SCHEMA } from './schemas';
import type { Report } from '../json/report';
import { validateEntry } from './validator';

// Re-exported for the metadata checks of document.ts: one wording for every schema message.
export { describeValue, pointer, typeName };

/** Range of what an ajv error points at: a `deps_before` element, a field's value, or the opcode. */
function errorRange(doc: ParsedCmdq, e: CmdqEntry, err: ErrorObject): [number, number] {
  const parts = pointer(err.instancePath);
  if (parts[0] === 'deps_before' && parts.length > 1) return depRange(doc, e, Number(parts[1]));
  return valueRange(doc, e, parts[0] || undefined);
}

/** Schema problems of one entry (ajv), and an unknown opcode with the nearest known one. */
export function entrySchemaDiagnostics(doc: ParsedCmdq, e: CmdqEntry, report: Report): void {
  const o = e.obj!;
  const op = e.opcode;
  if (op !== undefined && !opcodeSchema(op)) {
    const near = suggestOpcode(op);
    const [a, b] = valueRange(doc, e, 'opcode');
    report(a, b, 'error', 'cmdq.unknown-opcode',
      `Unknown opcode ${quoteString(op, 80)}${near ? `; did you mean "${near}"?` : ''} (known: DMA_LOAD_TILE, DMA_STORE_TILE, TE_GEMM_TILE, VE_<OP>_TILE, END)`);
  }
  const errors = validateEntry(o, op);
  if (!errors) return;
  const schema = (op !== undefined ? opcodeSchema(op) : undefined) ?? COMMON_SCHEMA;
  const label = op !== undefined && opcodeSchema(op) ? op : 'Entry';
  // ajv reports a too-large deps_before element by element: past the first 100, the rest are
  // counted and said in one diagnostic, so 1e6 bad deps stay readable and still fail the run.
  let depsReported = 0;
  let unlisted = 0;
  for (const err of errors) {
    if (err.instancePath.startsWith('/deps_before/') && ++depsReported > 100) {
      const kind = schemaProblemKind(err);
      if (kind && report.unlisted('error', `cmdq.${kind}`)) unlisted++;
      continue;
    }
    const [a, b] = errorRange(doc, e, err);
    const problem = schemaProblem(err, {
      label, obj: o,
      fieldType: (name) => (schema.properties[name] ?? COMMON_SCHEMA.properties[name])?.type,
      token: () => doc.text.slice(a, b),
    });
    if (problem) report(a, b, 'error', `cmdq.${problem.kind}`, problem.message);
  }
  reportUnlistedDeps(doc, e, unlisted, report);
}
