// Writes the InferScope examples of examples/ (run: node --import tsx test/gen/writeInferscopeExamples.ts).
import { writeFileSync } from 'node:fs';
import { INFERSCOPE_EXAMPLES } from './inferscopeExamples';

for (const [file, make] of Object.entries(INFERSCOPE_EXAMPLES)) writeFileSync(file, make());
process.stdout.write(`wrote ${Object.keys(INFERSCOPE_EXAMPLES).join(', ')}\n`);
