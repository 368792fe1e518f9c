// Runs every benchmark in turn and prints its numbers (`npm run bench`).
import { run as timeline } from './timeline';

async function main(): Promise<void> {
  for (const [name, run] of [['timeline', timeline]] as const) {
    console.log(`\n== ${name}`);
    await run();
  }
}

void main();
