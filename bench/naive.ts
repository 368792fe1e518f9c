import Ajv from 'ajv';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { EVENT_SCHEMAS } from '../core/trace/schemas';

/**
 * The baseline the issue names: readline + JSON.parse + ajv per line, with one schema that
 * dispatches on event_type (ajv's discriminator), as a user would write it.
 */
export async function naiveCheck(file: string): Promise<number> {
  const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true, allowUnionTypes: true });
  const schema = {
    type: 'object', required: ['event_type'], discriminator: { propertyName: 'event_type' },
    oneOf: Object.values(EVENT_SCHEMAS).map((s) => ({ ...(s as object), $id: undefined, $schema: undefined })),
  };
  const validate = ajv.compile(schema);
  let problems = 0;
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      problems++;
      continue;
    }
    if (!validate(obj)) problems += validate.errors?.length ?? 1;
  }
  return problems;
}
