import type { FormatService } from './format';
import { traceService } from './trace/service';
import { cmdqService } from './cmdq/service';

/** Every format the server understands; add a format by adding its service here. */
export const services: FormatService[] = [traceService as FormatService, cmdqService as FormatService];
