import { decode } from '../../core/kprof/decode';
import { detectLayout } from '../../core/kprof/layouts';
import { openBuffer, type OpenedBuffer } from '../../core/kprof/open';
import { kprofSummary } from '../../core/kprof/summary';
import type { ProfBuffer } from '../../core/kprof/words';
import type { InflateRaw } from '../../core/kprof/zip';
import { kprofTimeline } from '../../core/kprof/timeline';
import type { DecodedView, KprofWorkerRequest } from '../../protocol/kprofWorker';

/** One request, decoded here (in the worker, or in-process when the worker is not built). */
export function runRequest(req: KprofWorkerRequest, inflate: InflateRaw, onPhase?: (phase: 'reading' | 'decoding') => void): DecodedView {
  let opened: OpenedBuffer | undefined;
  let buf: ProfBuffer;
  if (req.kind === 'open') {
    onPhase?.('reading');
    opened = openBuffer(req.fileName, req.bytes, inflate);
    buf = opened.launches[Math.min(req.launch, opened.launches.length - 1)];
  } else buf = { words: req.words, slots: req.slots };
  onPhase?.('decoding');
  const decoded = decode(buf, { layout: detectLayout(buf.words, buf.slots), names: req.names ?? opened?.names });
  // The timeline model and the statistics cost about as much as the decode: built here too.
  const launches = opened ? opened.launches.length : req.kind === 'decode' ? req.launches : 1;
  return { opened, decoded, model: kprofTimeline(decoded), summary: kprofSummary(decoded, req.launch, launches) };
}
