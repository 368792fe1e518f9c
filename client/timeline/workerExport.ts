import { exportChromeTrace, MAX_JSON_LINE } from '../../node/export/chromeTraceFile';
import { forEachLine, forEachLineBytes, type ReadOptions } from '../../node/io/lines';
import { isChromeTraceFile } from '../../core/chrome/format';
import { splitLines } from '../../core/common/lines';
import type { WorkerRequest } from '../../protocol/timelineWorker';

/** The readers of the file on disk (a test passes spies, to see which pass read what). */
export interface Readers {
  forEachLine: typeof forEachLine;
  forEachLineBytes: typeof forEachLineBytes;
}

/**
 * The editor's "Export as Chrome Trace" in the timeline worker. A file on disk (a saved, unmodified
 * document too) is read as `npu-trace export` reads it: both passes stream bytes, the model pass
 * parses no line it can read from its bytes. An edited or untitled document's transferred bytes
 * are decoded and split as text. Returns the bytes written.
 */
export async function exportRequest(req: WorkerRequest & { export: { out: string } }, onPass: (pass: 1 | 2) => void, onProgress?: (bytesRead: number) => void, readers: Readers = { forEachLine, forEachLineBytes }): Promise<number> {
  if (req.kind === 'bytes') {
    const bytes = req.bytes;
    return exportChromeTrace(req.fileName, async (add) => {
      const lines = splitLines(new TextDecoder().decode(bytes));
      for (let i = 0; i < lines.length; i++) add(lines[i], i);
    }, req.export.out, onPass);
  }
  const path = req.path;
  // Chrome JSON is often one line of many MB, read whole (other formats keep the line limit).
  const maxLineBytes = isChromeTraceFile(req.fileName, '') ? MAX_JSON_LINE : undefined;
  let pass: 1 | 2 = 1;
  const read = (): ReadOptions => ({ maxLineBytes, onProgress: pass === 1 ? onProgress : undefined });
  return exportChromeTrace(req.fileName, async (add) => {
    await readers.forEachLine(path, add, undefined, read());
  }, req.export.out, (p) => {
    pass = p;
    onPass(p);
  }, async (onBytes, onText) => {
    await readers.forEachLineBytes(path, onBytes, onText, read());
  }, { modelFromBytes: true });
}
