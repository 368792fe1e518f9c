import { headOf } from '../io/firstLine';
import type { GzipEnd } from '../io/gunzip';
import { forEachText, textSizeHint } from '../io/lines';
import { timelineBuilderOf } from '../../core/detectFormat';
import type { FileHead } from '../../core/fileHead';
import type { TimelineBuilder } from '../../core/timeline/builder';
import type { TimelineModel } from '../../core/timeline/model';

/** Characters after which a file read as text shows a preview (about PREVIEW_LINES of a pretty-printed trace). */
const PREVIEW_CHARS = 4 << 20;

/**
 * The model of a file whose builder takes text in pieces (one JSON document: InferScope, Chrome), fed so
 * (gunzipped as it comes for a `.gz`), with the size known from disk or the gzip trailer first, so
 * a big one is read streamed from the start. Undefined: the file's builder reads lines. `builderFor`:
 * tests give a builder with a small streaming limit.
 */
export async function buildFromText(
  fileName: string, path: string, onPreview?: (m: TimelineModel) => void, onProgress?: (bytesRead: number) => void,
  builderFor: (fileName: string, head: FileHead) => TimelineBuilder | undefined = timelineBuilderOf,
): Promise<TimelineModel | undefined> {
  const builder = builderFor(fileName, headOf(path));
  if (!builder?.addText) return undefined;
  builder.expectChars?.(textSizeHint(path));
  let chars = 0;
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  await forEachText(path, (t) => {
    builder.addText!(t);
    if (onPreview && chars < PREVIEW_CHARS && (chars += t.length) >= PREVIEW_CHARS) onPreview(builder.finish(true));
  }, { onProgress, gzip });
  // A cut .gz: the builder leaves out the line the cut falls in, as the line readers do.
  builder.endText?.(gzip.truncated);
  return builder.finish();
}
