import { FORMATS } from '../core/formats';
import { chromeService } from './chrome/service';
import { checkerService } from './checkerService';
import { cmdqService } from './cmdq/service';
import type { FormatService } from './formatService';
import { inferscopeService } from './inferscope/service';
import { nnapiService } from './nnapi/service';
import { traceService } from './trace/service';

/** The formats with editor features of their own (hovers, navigation …), by format id. */
const OWN: Record<string, FormatService> = Object.fromEntries([traceService, cmdqService, nnapiService, inferscopeService, chromeService].map((s) => [s.formatId, s as FormatService]));

/** The server's service of every format of the registry with a language, keyed by `formatId`: its own, else its checker's. */
export const services: FormatService[] = FORMATS.flatMap((f) => (f.language ? [OWN[f.id] ?? checkerService(f)] : []));
