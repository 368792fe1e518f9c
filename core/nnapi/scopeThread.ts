/**
 * What a scope knows of the thread it ran on (the hover says it): `ThreadState` (builder.ts) is one.
 * Its own file, so a scope needs not import the builder that makes it.
 */
export interface ScopeThread {
  readonly pid: string;
  tgid: string;
  isDriver: boolean;
  task: string;
  /** The run, 0-based. */
  readonly run: number;
}
