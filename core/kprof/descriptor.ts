import type { FormatDescriptor } from '../formatDescriptor';
import { KPROF_CODES } from './codes';
import { kprofDiff } from './diff';
import { isNpy } from './npy';
import { isZip } from './zip';

/**
 * A kernel profiler's buffer (`.npy`, `.npz`, raw `.bin`): binary, opened by its own custom editor
 * and `npu-trace kprof`, which decode it (`open.ts`). `*.kprof.*` is one by name; another `.npy` or
 * `.npz` by its magic (a raw `.bin` has none: its name is all there is).
 */
export const kprofFormat: FormatDescriptor = {
  id: 'kprof',
  displayName: 'Kernel profiler buffer',
  // Reported by `npu-trace kprof` and the buffer's editor, not by `npu-trace check`.
  codes: KPROF_CODES,
  names: ['*.kprof.npy', '*.kprof.npz', '*.kprof.bin'],
  binary: true,
  // Default for `*.kprof.*`, offered under "Open With…" for any `.npy`, `.npz`, `.bin` (package.json `customEditors`).
  customEditors: ['npuTrace.kprof', 'npuTrace.kprofAny'],
  detect: (name, head) => {
    const ext = /\.(npy|npz|bin)$/i.exec(name)?.[1].toLowerCase();
    if (!ext) return false;
    // Without the bytes (a caller that has only the name) the extension decides.
    const b = head.bytes;
    if (!b?.length || ext === 'bin') return true;
    return ext === 'npy' ? isNpy(b) : isZip(b);
  },
  parquetTables: 'kprof',
  exportsChrome: true,
  diff: kprofDiff,
};
