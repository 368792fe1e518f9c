// Writes the example traces of examples/ (run: npm run examples).
import { writeFileSync, mkdirSync } from 'node:fs';
import { FAULTY_EXAMPLE, GOOD_EXAMPLE, faultyExample, goodExample } from './exampleTraces';
import { kprofExamples } from './kprofGen';

mkdirSync('examples', { recursive: true });
const good = goodExample();
writeFileSync(GOOD_EXAMPLE, `${good.join('\n')}\n`);
const faulty = faultyExample();
writeFileSync(FAULTY_EXAMPLE, `${faulty.lines.join('\n')}\n`);
process.stdout.write(`${GOOD_EXAMPLE}: ${good.length} events\n${FAULTY_EXAMPLE}: ${faulty.lines.length} lines, ${faulty.mistakes.length} expected diagnostics\n`);
for (const [file, bytes] of Object.entries(kprofExamples())) writeFileSync(file, bytes);
