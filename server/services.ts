import type { FormatService } from './format';
import { chromeService } from './chrome/service';
import { cmdqService } from './cmdq/service';
import { inferscopeService } from './inferscope/service';
import { nnapiService } from './nnapi/service';
import { traceService } from './trace/service';

/** Every format the server understands; add a format by adding its service here. */
export const services: FormatService[] = [traceService as FormatService, cmdqService as FormatService, nnapiService as FormatService, inferscopeService as FormatService, chromeService as FormatService];
