import type { Diagnostic } from '../../../core/common/diagnostic';
import { InferscopeDocument, type InferscopeOptions } from '../../../core/inferscope/document';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';

export type Obj = Record<string, unknown>;

export interface Row {
  code: string;
  /** The text under the range (one line). */
  token: string;
  d: Diagnostic;
}

export function rows(text: string, opts: InferscopeOptions = {}): Row[] {
  const lines = text.split('\n');
  return InferscopeDocument.parse(text).allDiagnostics(opts).map((d) => {
    const r = d.range;
    const token = r.start.line === r.end.line ? lines[r.start.line].slice(r.start.character, r.end.character) : '';
    return { code: d.code, token, d };
  });
}

/**
 * A one-request trace (events: 0 tokenize, 1 instant, 2 malloc, 3 h2d, 4 k7_0, 5 k8_0, 6 k7_1,
 * 7 k8_1, 8 d2h; scopes: 0 inference, 1 request_0, 2 prep_0, 3 gpu_0) changed by `mutate`.
 */
export function traceWith(mutate: (t: { events: Obj[]; scopes: Obj[]; root: Obj }) => void): string {
  const root = inferscopeTrace({ requests: 1, kernels: 2 });
  mutate({ events: root.events as Obj[], scopes: (root.relationships as { scopes: Obj[] }).scopes, root });
  return pretty(root);
}

export const codes = (r: Row[]) => r.map((x) => x.code);
