/**
 * What the host-side unit tests put in place of the `vscode` module (there is no VS Code here):
 * an EventEmitter as VS Code's behaves, and the hook that hands a test's stand-in to every
 * `require('vscode')` made after it.
 */
import Module from 'node:module';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private ls: Listener<T>[] = [];
  event = (l: Listener<T>) => { this.ls.push(l); return { dispose: () => { this.ls = this.ls.filter((x) => x !== l); } }; };
  fire(e: T) { for (const l of this.ls) l(e); }
  dispose() { this.ls = []; }
}

/** From now on `require('vscode')` gives `standIn`: require the module under test after this. */
export function standInForVscode(standIn: object): void {
  const M = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = M._load;
  M._load = (req: string, ...rest: unknown[]) => (req === 'vscode' ? standIn : load(req, ...rest));
}
