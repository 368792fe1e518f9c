import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { getLanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import pkg from '../../../package.json';

const ROOT = resolve(__dirname, '../../..');
const FIX = join(ROOT, 'test/fixtures/cmdq');

/** The schema as another JSON tool sees it: through package.json's jsonValidation, refs resolved from disk. */
async function validateLikeVsCode(name: string): Promise<string[]> {
  const contrib = pkg.contributes.jsonValidation.find((j) => j.fileMatch.includes('*.cmdq.json'));
  assert.ok(contrib, 'package.json contributes the CMDQ schema');
  const ls = getLanguageService({
    schemaRequestService: (uri) => Promise.resolve(readFileSync(new URL(uri), 'utf8')),
    workspaceContext: { resolveRelativePath: (rel, res) => new URL(rel, res).toString() },
  });
  ls.configure({ validate: true, schemas: [{ uri: pathToFileURL(join(ROOT, contrib.url)).toString(), fileMatch: contrib.fileMatch }] });
  const doc = TextDocument.create(pathToFileURL(join(FIX, `${name}.cmdq.json`)).toString(), 'json', 1, readFileSync(join(FIX, `${name}.cmdq.json`), 'utf8'));
  const ds = await ls.doValidation(doc, ls.parseJSONDocument(doc), { schemaValidation: 'error' });
  return ds.map((d) => `${d.range.start.line + 1} ${d.message}`);
}

describe('cmdq schemas through jsonValidation', () => {
  it('the golden CMDQ is valid for vscode-json-languageservice', async () => {
    assert.deepEqual(await validateLikeVsCode('golden'), []);
  });
  it('schema-level mistakes are found by it too, on the same lines', async () => {
    assert.match((await validateLikeVsCode('missing-field')).join('\n'), /^5 .*spm_offset/m);
    assert.match((await validateLikeVsCode('wrong-type')).join('\n'), /^6 Incorrect type/m);
    assert.match((await validateLikeVsCode('invalid-value')).join('\n'), /^4 Value is not accepted/m);
  });
});
