import { readFileSync } from 'node:fs';
import { androidSystemTrace, emptyTrace, sdkTrace, systraceToPerfetto } from './perfettoGen';

export const PERFETTO_FIXTURES = 'test/fixtures/real/perfetto';

/** The committed Perfetto fixtures: file name → bytes, as the generators write them. */
export function perfettoFixtures(): Record<string, Uint8Array> {
  return {
    'sdk-track-events.pftrace': sdkTrace(),
    'android-atrace.perfetto-trace': androidSystemTrace({ marks: 2 }),
    'no-events.pftrace': emptyTrace(),
    'nnapi-mobilenet.perfetto-trace': systraceToPerfetto(readFileSync('examples/nnapi-mobilenet.systrace', 'utf8')),
  };
}
