import { exportChromeTrace } from '../export/chromeTraceFile';
import { exportByteChrome } from '../io/byteFiles';
import { headOf } from '../io/firstLine';
import { forEachLine, forEachLineBytes, type ReadOptions } from '../io/lines';
import { splitLines } from '../../core/common/lines';
import { detectFormat } from '../../core/detectFormat';
import { HEAD_BYTES } from '../../core/fileHead';
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
    const text = new TextDecoder().decode(req.bytes);
    return exportChromeTrace(req.fileName, async (add) => {
      const lines = splitLines(text);
      for (let i = 0; i < lines.length; i++) add(lines[i], i);
    }, req.export.out, onPass, undefined, { head: text.slice(0, HEAD_BYTES) });
  }
  const path = req.path;
  const head = headOf(path);
  const format = detectFormat(req.fileName, head);
  // A binary format (a Perfetto protobuf trace) has no lines to copy: its model is exported, in one pass over its bytes.
  if (format?.byteTimeline) {
    onPass(1);
    return exportByteChrome(path, { ...format, byteTimeline: format.byteTimeline }, req.export.out);
  }
  // A streamed document (Chrome JSON is often one line of many MB) is read up to its format's line limit.
  const maxLineBytes = format?.streamedLineBytes;
  let pass: 1 | 2 = 1;
  const read = (): ReadOptions => ({ maxLineBytes, onProgress: pass === 1 ? onProgress : undefined, utf8Chunks: true });
  return exportChromeTrace(req.fileName, async (add) => {
    await readers.forEachLine(path, add, undefined, read());
  }, req.export.out, (p) => {
    pass = p;
    onPass(p);
  }, async (onBytes, onText) => {
    await readers.forEachLineBytes(path, onBytes, onText, read());
  }, { modelFromBytes: true, head });
}
