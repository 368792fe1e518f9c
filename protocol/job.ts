/**
 * What one message of a one-shot worker means to node/jobs/runJob.ts: a step of progress, the
 * job's one result, or its failure. Each worker protocol here says which of its messages is which,
 * so its messages keep their own shape and both sides import one declaration.
 */
export type JobStep<P, R> = { progress: P } | { result: R } | { error: Error };
