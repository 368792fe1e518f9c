// The editor's trace checks are updated per edit (core/trace/incrementalChecks.ts). Traces here
// are dense in shared ids — duplicate enqueues and issues, STARTs and ENDs of the same id, times
// going backwards, TRACE_META in the middle, unknown commands — so most edits change groups that
// others depend on; after every edit of a long sequence the diagnostics must equal a fresh parse,
// and so must the index kept up to date beside them: ids → lines, definitions, END→START pairs,
// the outline, and definition/references on every id token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareDiagnostics } from '../../core/common/diagnostic';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { TraceDocument } from '../../core/trace/document';
import { definitionAt, referencesAt } from '../../core/trace/navigation';
import { documentSymbols } from '../../core/trace/symbols';
import { indexShape } from '../unit/trace/indexShape';

/** What navigation answers on every line: definition and references from each id value. */
function navigation(doc: TraceDocument): unknown[] {
  const out: unknown[] = [];
  doc.lines.forEach((l, i) => {
    for (const key of ['cmd_id', 'job_id', 'tx_id']) {
      const at = l.text.indexOf(`"${key}":`);
      if (at < 0) continue;
      const ch = at + key.length + 3;
      out.push([i, key, definitionAt(doc, i, ch), referencesAt(doc, i, ch), referencesAt(doc, i, ch, false)]);
    }
  });
  return out;
}

const id = fc.integer({ min: 0, max: 3 });
const t = fc.integer({ min: 0, max: 30 });
const event = fc.oneof(
  fc.record({ event_type: fc.constant('CMD_ENQUEUE'), t_cycle: t, cmd_id: id, cmd_type: fc.constant('MATMUL'), source: fc.constant('ISA') }),
  fc.record({ event_type: fc.constantFrom('CMD_START', 'CMD_END'), t_cycle: t, cmd_id: id }),
  fc.record({ event_type: fc.constant('JOB_ISSUE'), t_cycle: t, job_id: id, cmd_id: id, job_type: fc.constant('TE_GEMM') }),
  fc.record({ event_type: fc.constant('JOB_DONE'), t_cycle: t, job_id: id, cmd_id: id, latency_cycles: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ event_type: fc.constantFrom('DMA_START', 'DMA_END'), t_cycle: t, tx_id: id, channel: fc.constant(0), direction: fc.constant('DRAM_TO_SRAM'), size_bytes: fc.constant(64) }),
  fc.record({ event_type: fc.constant('TRACE_META'), version: fc.constant('1.0'), clock_ghz: fc.constantFrom(1, 2) }),
  fc.record({ event_type: fc.constant('CMD_ENQUEUE'), t_cycle: t, cmd_id: id, cmd_type: fc.constantFrom('MATMUL', 'GELU'), phase: fc.constantFrom('MLP', 'LN1'), layer_id: id }),
).map((o) => JSON.stringify(o));
const line = fc.oneof({ weight: 8, arbitrary: event }, { weight: 1, arbitrary: fc.constantFrom('', '{', 'not json', '{"event_type":"CMD_START"}') });

const edit = fc.record({ at: fc.nat(), del: fc.nat({ max: 3 }), add: fc.array(line, { maxLength: 3 }), typing: fc.boolean() });
/** Several edits in one update, as multiple cursors send them. */
const batch = fc.array(edit, { minLength: 1, maxLength: 3 });

describe('incremental trace checks', () => {
  it('after each update of a sequence (one edit or several at once), the same diagnostics, index, outline and navigation as a fresh parse', () => {
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), fc.array(batch, { minLength: 1, maxLength: 10 }), fc.boolean(), (initial, batches, ask) => {
      let lines = initial;
      const doc = TraceDocument.parse(lines.join('\n'));
      doc.allDiagnostics();
      for (const edits of batches) {
        // Navigation asked before the edit fills the caches (outline labels) that it must update.
        if (ask) documentSymbols(doc);
        const changes: { start: number; end: number; newCount: number }[] = [];
        for (const e of edits) {
          const start = e.at % lines.length;
          // Typing replaces one line by one; other edits insert, delete or replace blocks.
          const end = e.typing ? start + 1 : Math.min(lines.length, start + e.del);
          let add = e.typing ? [e.add[0] ?? lines[start].slice(1)] : e.add;
          if (lines.length - (end - start) + add.length === 0) add = [''];
          lines = [...lines.slice(0, start), ...add, ...lines.slice(end)];
          changes.push({ start, end, newCount: add.length });
        }
        const now = lines;
        doc.update(changes, (i) => now[i]);
        const fresh = TraceDocument.parse(lines.join('\n'));
        assert.deepEqual([...doc.allDiagnostics()].sort(compareDiagnostics), [...fresh.allDiagnostics()].sort(compareDiagnostics));
        assert.deepEqual(doc.diagnostics(defaultDiagnosticSettings), fresh.diagnostics(defaultDiagnosticSettings));
        assert.deepEqual(indexShape(doc.index, lines.length), indexShape(fresh.index, lines.length));
        assert.deepEqual(documentSymbols(doc), documentSymbols(fresh));
        assert.deepEqual(navigation(doc), navigation(fresh));
      }
    }), { numRuns: 1000 });
  });
});
