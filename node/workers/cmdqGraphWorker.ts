// The CMDQ dependency graph of one document version, computed off the extension host's thread
// (bundled as dist/cmdqGraphWorker.js; a 100k-entry queue parses and schedules in about a second
// on a loaded machine).
import { parentPort, workerData } from 'node:worker_threads';
import { CmdqDocument } from '../../core/cmdq/document';
import { analyzeGraph } from '../../core/cmdq/graph/analysis';
import { costModelOf } from '../../core/cmdq/graph/cost';
import { graphProblems, type GraphProblem } from '../../core/cmdq/graph/problems';
import { joinLayers } from '../../core/cmdq/graph/join';
import { graphJoin, graphViewBuffers, graphViewModel } from '../../core/cmdq/graph/view';
import type { GraphWorkerReply, GraphWorkerRequest } from '../../protocol/cmdqGraphWorker';

function run(req: GraphWorkerRequest, post: (r: GraphWorkerReply, transfer?: ArrayBuffer[]) => void): void {
  let doc: CmdqDocument;
  try {
    doc = CmdqDocument.parse(req.text.charCodeAt(0) === 0xfeff ? req.text.slice(1) : req.text);
    const p = doc.parsed;
    if (p.rootKind !== 'object' || p.cmdqKind !== 'array') return post({ kind: 'error', message: 'Not a CMDQ: the file has no top-level "cmdq" array (yet).' });
    const a = analyzeGraph(p.entries, doc.graph, costModelOf(req.cost));
    // Offsets are into the text without its BOM, as the editor's are.
    const shift = req.text.length - doc.parsed.text.length;
    const model = graphViewModel(p.entries, doc.graph, a, []);
    if (req.trace) model.join = graphJoin(req.trace.name, joinLayers(p.entries, a, req.trace.layers, req.trace.layerMap), req.trace.note);
    const starts = new Int32Array(p.entries.length), ends = new Int32Array(p.entries.length);
    for (let i = 0; i < p.entries.length; i++) {
      starts[i] = p.entries[i].start + shift;
      ends[i] = p.entries[i].end + shift;
    }
    // The columns are moved, not copied: the host gets them without a clone of 100k numbers each.
    post({ kind: 'done', model, starts, ends }, [...graphViewBuffers(model), starts.buffer, ends.buffer]);
  } catch (e) {
    return post({ kind: 'error', message: `The graph could not be computed: ${e instanceof Error ? e.message : String(e)}` });
  }
  // The checks after the first paint (a fifth of the work on 100k entries).
  let problems: GraphProblem[] = [];
  try {
    problems = graphProblems(doc, doc.capped(req.diagnostics).diagnostics);
  } catch {
    // The Problems panel reports what the checker throws; the graph keeps its nodes unflagged.
  }
  post({ kind: 'problems', problems });
}

run(workerData as GraphWorkerRequest, (r, transfer) => parentPort?.postMessage(r, transfer));
