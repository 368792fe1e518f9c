/**
 * What a timeline panel restored after a window reload may trust of the state its page saved. The
 * page draws trace data, so its state is input like any other: only its shape is taken from it,
 * and the file it names is shown again only when the user has it open or in the workspace.
 */

/** Longest URI taken from saved state (a real path is far shorter). */
export const MAX_SAVED_URI = 4096;

/** The file URI in the page's saved state (`{ uri, view?, scrollY? }`), or undefined when the state has another shape. */
export function savedUri(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
  const { uri, view, scrollY } = state as Record<string, unknown>;
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_SAVED_URI) return undefined;
  if (view !== undefined && !(Array.isArray(view) && view.length === 2 && view.every((v) => typeof v === 'number'))) return undefined;
  if (scrollY !== undefined && typeof scrollY !== 'number') return undefined;
  return uri;
}

/** Where a restored panel's file is known to the user from. */
export interface Known {
  /** The URI is one of the documents open in the editor. */
  open: boolean;
  /** The URI is inside one of the workspace folders. */
  inWorkspace: boolean;
}

/** Whether a restored panel may read its file without asking: the user opened it, or it is in the workspace. */
export function mayRestore(k: Known): boolean {
  return k.open || k.inWorkspace;
}
