/**
 * What one message of a one-shot worker means to node/jobs/runJob.ts: a step of progress, the
 * job's one result, or its failure. Each worker protocol here says which of its messages is which,
 * so its messages keep their own shape and both sides import one declaration.
 */
export type JobStep<P, R> = { progress: P } | { result: R } | { error: Error };

/** What node/jobs/runJob.ts posts to a worker it kept warm: its next request (the first one is its workerData). */
export interface NextJob<Q> {
  nextJob: Q;
}

export const isNextJob = <Q>(m: unknown): m is NextJob<Q> => typeof m === 'object' && m !== null && 'nextJob' in m;

/** What a worker served by node/jobs/serveJobs.ts posts after a result when it should not be kept for another job. */
export interface Retire {
  retire: true;
}

export const isRetire = (m: unknown): m is Retire => typeof m === 'object' && m !== null && (m as Partial<Retire>).retire === true;
