import { chromeFormat } from './chrome/descriptor';
import { cmdqFormat } from './cmdq/descriptor';
import type { FormatDescriptor } from './formatDescriptor';
import { inferscopeFormat } from './inferscope/descriptor';
import { kprofFormat } from './kprof/descriptor';
import { nnapiFormat } from './nnapi/descriptor';
import { traceFormat } from './trace/descriptor';

/**
 * The registry: every format, one line each, in the order their content detectors are tried (names
 * never overlap). Nothing else lists formats: the CLI, the server, the client, the timeline, Check
 * All, export and `package.json` (`npm run gen:contributions`) all read this list.
 */
export const FORMATS: readonly FormatDescriptor[] = [
  traceFormat,
  cmdqFormat,
  nnapiFormat,
  inferscopeFormat,
  chromeFormat,
  kprofFormat,
];
