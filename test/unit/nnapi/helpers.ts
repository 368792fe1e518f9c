import assert from 'node:assert/strict';
import type { Aggregate, LayerTimes, PhaseTimes } from '../../../core/nnapi/aggregate';
import { NnapiDocument } from '../../../core/nnapi/document';

export function analyzeText(text: string): NnapiDocument {
  return NnapiDocument.parse(text);
}

/** The aggregate of run `i`, which must be complete. */
export function runAgg(doc: NnapiDocument, i = 0): Aggregate {
  const r = doc.analysis.runs[i];
  assert.ok(r, `run ${i} exists`);
  assert.ok(r.aggregate, `run ${i} is complete`);
  return r.aggregate;
}

export function near(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined, `${what}: missing key`);
  if (Number.isNaN(expected)) {
    assert.ok(Number.isNaN(actual), `${what}: expected missing (NaN), got ${actual}`);
    return;
  }
  assert.ok(Math.abs(actual - expected) <= 0.01, `${what}: expected ${expected} ms, got ${actual}`);
}

/** Checks `phase.layer` cells of a times table, e.g. `{ 'PC.LR': 14 }`. */
export function cells(t: Aggregate['times'], expected: Record<string, number>, what: string): void {
  for (const [k, v] of Object.entries(expected)) {
    const parts = k.split('.');
    let node: unknown = t;
    for (const p of parts) node = (node as Record<string, unknown>)[p];
    near(node as number, v, `${what} ${k}`);
  }
}

export type { LayerTimes, PhaseTimes };

export function codes(doc: NnapiDocument): string[] {
  return doc.allDiagnostics().map((d) => d.code).sort();
}
