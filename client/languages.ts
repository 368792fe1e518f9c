import { FORMATS } from '../core/formats';

/** Languages served by the language server (the desktop and the browser client both select them): every format with a language. */
export const SERVED_LANGUAGES = FORMATS.flatMap((f) => (f.language ? [f.id] : []));
