// Writes the generated Perfetto fixtures of test/fixtures/real/perfetto/ (run: node --import tsx test/gen/writePerfettoFixtures.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERFETTO_FIXTURES, perfettoFixtures } from './perfettoFixtures';

mkdirSync(PERFETTO_FIXTURES, { recursive: true });
for (const [name, bytes] of Object.entries(perfettoFixtures())) {
  writeFileSync(join(PERFETTO_FIXTURES, name), bytes);
  process.stdout.write(`${join(PERFETTO_FIXTURES, name)}: ${bytes.length} bytes\n`);
}
