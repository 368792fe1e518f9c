// The reading thread of a timeline built on two threads (dist/timelineReadWorker.js): reads a part
// of the file's text with its format's `timelineReader` and posts what it recorded, batch by batch,
// to the thread that builds the model (timelineText.ts `buildInParts`).
import { parentPort, workerData } from 'node:worker_threads';
import { detectFormat } from '../../core/detectFormat';
import type { TimelineReadJob, TimelineReadMessage } from '../../protocol/timelineRead';
import { headOf } from '../io/firstLine';
import { forEachText } from '../io/lines';

const port = parentPort!;
const { fileName, path, part } = workerData as TimelineReadJob;
const post = (m: TimelineReadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
let chars = 0;
const reader = detectFormat(fileName, headOf(path))?.timelineReader?.((batch, transfer) => post({ batch, chars }, transfer), part.form);
if (!reader?.addText) post({ error: 'this file has no reader of its timeline on another thread' });
else {
  forEachText(path, (t) => {
    chars += t.length;
    reader.addText!(t);
  }, { range: { start: part.start, end: part.end } }).then(() => {
    reader.endText!(false);
    post({ done: true });
  }, (e: unknown) => post({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
}
