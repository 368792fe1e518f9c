import * as vscode from 'vscode';
import { elementFields, lineFields, MAX_ELEMENT_LINES, opensElement } from './fields';
import type { LineSource, TimelineHost } from './host';

/**
 * The lines a timeline panel shows the details of: from the open document when the model came from
 * it, else read back from the file on disk (with the index that makes later clicks seek).
 */
export class DetailLines implements vscode.Disposable {
  private fileLines: LineSource | undefined;

  constructor(private readonly uri: vscode.Uri, private readonly host: TimelineHost, private readonly fromDocument: () => boolean) {}

  async texts(lines: number[]): Promise<Map<number, string>> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.uri.toString());
    if (doc && this.fromDocument()) return new Map(lines.filter((l) => l < doc.lineCount).map((l) => [l, doc.lineAt(l).text]));
    if (this.uri.scheme !== 'file' || !this.host.disk) return new Map();
    this.fileLines ??= this.host.disk.lines(this.uri.fsPath);
    return this.fileLines.read(lines);
  }

  /** The fields of the element starting on `line` (`text`): reads the lines below when it goes on there. */
  async fieldsAt(line: number, text: string): Promise<[string, string][]> {
    if (!opensElement(text)) return lineFields(text);
    const want = Array.from({ length: MAX_ELEMENT_LINES }, (_, k) => line + k);
    const got = await this.texts(want);
    const lines: string[] = [];
    for (const l of want) {
      const t = got.get(l);
      if (t === undefined) break;
      lines.push(t);
    }
    return elementFields(lines);
  }

  dispose(): void {
    this.fileLines?.dispose();
  }
}
