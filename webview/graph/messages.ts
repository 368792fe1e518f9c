/** What the CMDQ graph page does with the host's messages: a queue to show, its problems, an entry to select, an error. */
import type { GraphProblem } from '../../core/cmdq/graph/problems';
import type { GraphViewModel } from '../../core/cmdq/graph/view';
import type { GraphHostMessage } from '../../protocol/cmdqGraph';
import { requestDraw } from './draw';
import { layoutGraph } from './layout';
import { fit, select, selectionText, setMode, showTable } from './navigate';
import { info, layersButton, selection, tableBox } from './page';
import { layoutSchedule, type ScheduleLayout } from './schedule';
import { MAX_EDGES_DRAWN, page, type GraphState } from './state';

function summary(m: GraphViewModel, fileName: string): string {
  const share = m.load.filter((l) => l.critical > 0).slice(0, 8).map((l) => `${l.engine} ${m.criticalLength ? Math.round((100 * l.critical) / m.criticalLength) : 0}%`).join(', ');
  const blocked = m.blocked ? ` · ${m.blocked} blocked by ${m.cycleCount} cycle${m.cycleCount === 1 ? '' : 's'}` : '';
  return `${fileName}: ${m.n} entries · critical path ${m.criticalLength} cycles (${share}) · list-scheduled run ${m.makespan} cycles${blocked}`;
}

/** The checker's problems by entry (flags) and the edges they sit on. */
function placeProblems(list: readonly GraphProblem[], n: number): Pick<GraphState, 'problems' | 'problemEdges'> {
  const problems = new Map<number, { code: string; severity: string }[]>();
  const problemEdges: GraphState['problemEdges'] = [];
  const flag = (i: number, p: { code: string; severity: string }) => {
    const found = problems.get(i) ?? [];
    // A hundred problems on one entry still make one flag and a short list.
    if (found.length < 20) found.push(p);
    problems.set(i, found);
  };
  for (const p of list) {
    if (p.index >= n) continue;
    flag(p.index, p);
    if (p.peer !== undefined && p.peer < n) flag(p.peer, p);
    if (p.from !== undefined && p.from < n && problemEdges.length < MAX_EDGES_DRAWN) problemEdges.push({ from: p.from, to: p.index, error: p.severity === 'error' });
  }
  return { problems, problemEdges };
}

/** A queue (the first, or after an edit): laid out and shown, the selection kept. */
function showGraph(msg: Extract<GraphHostMessage, { type: 'graph' }>): void {
  const keep = page.st?.selected ?? -1;
  const critical = new Uint8Array(msg.model.n);
  for (const i of msg.model.criticalPath) critical[i] = 1;
  const first = !page.st;
  const model = msg.model;
  let schedule: ScheduleLayout | undefined;
  page.st = {
    model, layout: layoutGraph(model), critical, selected: -1, ancestors: undefined, descendants: undefined, ...placeProblems(model.problems, model.n),
    // Sorted rows per engine only once the schedule is shown (or a node selected): not before the first paint.
    get schedule() {
      return (schedule ??= layoutSchedule(model));
    },
  };
  info.textContent = summary(msg.model, msg.fileName);
  layersButton.hidden = !msg.model.join;
  showTable(!tableBox.hidden);
  if (first) {
    setMode('schedule');
    fit();
    setMode('graph');
    fit();
  }
  if (keep >= 0 && keep < msg.model.n) select(keep, false);
  requestDraw();
}

export function onMessage(msg: GraphHostMessage): void {
  if (msg.type === 'graph') showGraph(msg);
  else if (msg.type === 'problems') {
    const st = page.st;
    if (!st) return;
    Object.assign(st, placeProblems(msg.problems, st.model.n));
    if (st.selected >= 0) selection.textContent = selectionText(st.selected);
    requestDraw();
  } else if (msg.type === 'select') select(msg.index, false);
  else if (msg.type === 'error') info.textContent = msg.message;
}
