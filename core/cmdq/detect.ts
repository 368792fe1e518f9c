import { createScanner } from 'jsonc-parser';

/** Whether a document's first line already shows a top-level "cmdq" key (`{ "cmdq": [`), for the CLI. */
export function looksLikeCmdqStart(firstLine: string): boolean {
  return /^\s*\{\s*"cmdq"\s*:/.test(firstLine) || /^\s*\{\s*"metadata"\s*:.*"cmdq"\s*:\s*\[/.test(firstLine);
}

/**
 * Whether a JSON document's top-level object has a `cmdq` array: how a plain `.json` file is offered
 * the cmdq language. Looks at top-level keys only and gives up after `maxTokens`, so it costs nothing
 * on a large unrelated JSON file.
 */
export function hasTopLevelCmdqArray(text: string, maxTokens = 100000): boolean {
  const s = createScanner(text, true);
  // A UTF-8 BOM is no token: the parser skips it too.
  if (text.charCodeAt(0) === 0xfeff) s.setPosition(1);
  let depth = 0;
  let expectKey = false;
  let lastKey: string | undefined;
  for (let n = 0; n < maxTokens; n++) {
    const k = s.scan();
    switch (k) {
      case 17: // EOF
        return false;
      case 12: case 13: // comments
        continue;
      case 1: // {
        if (depth === 0 && n > 0) return false;
        if (depth === 1 && lastKey === 'cmdq') return false;
        depth++;
        expectKey = depth === 1;
        break;
      case 3: // [
        if (depth === 0) return false;
        if (depth === 1 && lastKey === 'cmdq') return true;
        depth++;
        break;
      case 2: case 4:
        depth--;
        if (depth <= 0) return false;
        break;
      case 5: // ,
        if (depth === 1) expectKey = true;
        break;
      case 6: // :
        break;
      case 10: // string
        if (depth === 1 && expectKey) {
          lastKey = s.getTokenValue();
          expectKey = false;
        } else if (depth === 1) lastKey = undefined;
        break;
      default:
        if (depth === 0) return false;
        if (depth === 1) lastKey = undefined;
    }
  }
  return false;
}
