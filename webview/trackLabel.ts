import { TRACK_FLAG, type TrackInfo } from '../core/timeline/model';

/**
 * What a track's header says beyond its name: a profiler lane that ran out of buffer
 * (`kprof.buffer-full`) is labelled so and drawn in the error colour with a bar, since its spans
 * end where records were lost, not where the kernel stopped.
 */
export function trackLabel(t: TrackInfo): { text: string; alert: string } {
  if ((t.flags ?? 0) & TRACK_FLAG.bufferFull) return { text: `${t.name} ⚠ full`, alert: 'records past the end of the buffer were lost (kprof.buffer-full)' };
  return { text: t.name, alert: '' };
}
