import { flatObjectReader } from '../json/flatObject';
import { KEY_NAMES, TYPE_RULES } from './fastRules';

/**
 * The one byte-level reader of an NPU trace line (the JSON toolkit's flat-object reader with this
 * format's names): the checker's scanner (fastBytes.ts) and the metrics' and timeline's field
 * reader (metrics/byteFields.ts) both read through it. Its keys are every key of the event schemas
 * and its tags every event type of them, so its guesses of the key at each position (by event
 * type) hold for every field of a line whoever reads it; each caller takes what it needs of the
 * fields right after a read, before the next one.
 */
export const LINE_READER = flatObjectReader(KEY_NAMES, { tagKey: 'event_type', tags: TYPE_RULES.map((t) => t.name) });

/** A key's id in the reader (-1 for a name no schema has). */
export const keyIdOf = (name: string): number => KEY_NAMES.indexOf(name);
/** An event type's tag in the reader (its index in TYPE_RULES; -1 for a type no schema has). */
export const tagOf = (type: string): number => TYPE_RULES.findIndex((t) => t.name === type);
