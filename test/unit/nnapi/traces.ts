import { thread, trace, type Mark } from './traceBuilder';

/** Warm-up + benchmark in run 1, a second run after it. */
export function benchmarkTrace(): string {
  const exec = (t0: number, wait: number, end: number): [number, string][] => [
    [t0, '[NN_LA_PE]exec'],
    [t0 + 1, '[NN_LR_PE]ANeuralNetworksExecution_create'], [t0 + 2, 'E'],
    [t0 + 3, '[NN_LR_PE]ANeuralNetworksExecution_startCompute'], [t0 + 4, 'E'],
    [t0 + 5, '[NN_LR_PE]ANeuralNetworksEvent_wait'], [wait, 'E'],
    [end, 'E'],
  ];
  const marks: Mark[] = thread([
    [0, '[NN_LA_PO]bench_model'],
    [1, '[NN_LA_PWU]warmup'], ...exec(2, 10, 11), [12, 'E'],
    [13, '[NN_LA_PBM]benchmark'], ...exec(14, 21, 22), ...exec(23, 31, 32), [33, 'E'],
    [34, 'E'],
    [40, '[NN_LA_PO]second'], [41, '[NN_LR_PP]model'], [44, 'E'], [50, 'E'],
  ]);
  return trace(marks);
}
