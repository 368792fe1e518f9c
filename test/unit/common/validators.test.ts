// The committed standalone validators are what scripts/gen-validators.mjs makes of schemas/ today:
// a schema edited without re-running the generator fails here, not in a user's editor.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

describe('precompiled schema validators', () => {
  for (const which of ['trace', 'cmdq', 'inferscope'] as const) {
    it(`core/${which}/validators.gen.* match schemas/${which}`, async () => {
      const gen = (await import(join(ROOT, 'scripts/gen-validators.mjs'))) as {
        generate: (w: string) => { js: string; dts: string };
        OUTPUTS: Record<string, string>;
      };
      const { js, dts } = gen.generate(which);
      const out = join(ROOT, gen.OUTPUTS[which]);
      assert.ok(readFileSync(`${out}.js`, 'utf8') === js, `${out}.js is stale: run npm run gen:validators`);
      assert.equal(readFileSync(`${out}.d.ts`, 'utf8'), dts);
    });
  }
});
