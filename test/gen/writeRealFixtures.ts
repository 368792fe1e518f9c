// Writes test/fixtures/real/: files laid out as PyTorch (Kineto), JAX (XLA) and Triton Proton write
// them, from generators that follow each writer's source (see test/fixtures/real/README.md).
// Run: node --import tsx test/gen/writeRealFixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { jaxPerfettoTrace } from './jaxGen';
import { kinetoCompiledTrace, kinetoEagerTrace, kinetoLegacyTrace } from './kinetoGen';
import { protonTrace } from './protonGen';

export const REAL = 'test/fixtures/real';
export const REAL_FILES = {
  eager: `${REAL}/pytorch/eager-step.pt.trace.json`,
  compiled: `${REAL}/pytorch/compiled-step.pt.trace.json`,
  legacy: `${REAL}/pytorch/kineto-2021.pt.trace.json`,
  jax: `${REAL}/jax/perfetto_trace.json.gz`,
  proton: `${REAL}/proton/matmul.chrome_trace`,
};

if (process.argv[1]?.endsWith('writeRealFixtures.ts')) {
  for (const d of ['pytorch', 'jax', 'proton']) mkdirSync(`${REAL}/${d}`, { recursive: true });
  writeFileSync(REAL_FILES.eager, kinetoEagerTrace().text);
  writeFileSync(REAL_FILES.compiled, kinetoCompiledTrace().text);
  writeFileSync(REAL_FILES.legacy, kinetoLegacyTrace().text);
  writeFileSync(REAL_FILES.jax, gzipSync(jaxPerfettoTrace().text));
  writeFileSync(REAL_FILES.proton, protonTrace().text);
  process.stdout.write(`${Object.values(REAL_FILES).join('\n')}\n`);
}
