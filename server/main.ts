import { TextDocumentSyncKind, type Connection, type InitializeResult } from 'vscode-languageserver';
import type { Diagnostic } from '../core/common/diagnostic';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { defaultDiagnosticSettings, finalizeDiagnostics, normalizeSettings, type DiagnosticSettings } from '../core/common/settings';
import { internalErrorDiagnostic, toLspDiagnostic } from './convert';
import { DocumentStore, type OpenDocument } from './documents';
import { registerFeatures } from './features';
import { nextTurn } from './nextTurn';
import { documentTooLarge } from './tooLarge';
import { registerCustomRequests } from './requests';
import { services } from './services';

/**
 * The language server on `connection`: the same in every host (a Node process for the desktop,
 * a web worker or the web extension host itself for vscode.dev); only the entry that makes the
 * connection differs (server.ts, browser.ts).
 */
export function startServer(connection: Connection): void {
  const store = new DocumentStore(services, (uri, err) => connection.console.error(`parsing ${uri} failed: ${err instanceof Error ? err.stack : String(err)}`),
    () => settings.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  let settings: DiagnosticSettings = defaultDiagnosticSettings;
  let canPullConfig = false;

  connection.onInitialize((params): InitializeResult => {
    canPullConfig = !!params.capabilities.workspace?.configuration;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        documentHighlightProvider: true,
        completionProvider: { triggerCharacters: ['"', ',', '[', ' ', ':'] },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        codeLensProvider: { resolveProvider: false },
        foldingRangeProvider: true,
      },
      serverInfo: { name: 'npu-trace-inspector' },
    };
  });

  connection.onInitialized(async () => {
    await refreshSettings();
  });

  connection.onDidChangeConfiguration(async (change) => {
    const fromPush = (change.settings as { npuTrace?: { diagnostics?: unknown } } | undefined)?.npuTrace?.diagnostics;
    if (canPullConfig) await refreshSettings();
    else settings = normalizeSettings(fromPush);
    for (const entry of store.all()) schedule(entry);
  });

  async function refreshSettings(): Promise<void> {
    if (!canPullConfig) return;
    try {
      const raw: unknown = await connection.workspace.getConfiguration('npuTrace.diagnostics');
      settings = normalizeSettings(raw);
    } catch {
      settings = defaultDiagnosticSettings;
    }
  }

  // Diagnostics are published once changes stop coming: vscode-jsonrpc handles one queued message
  // per event-loop turn, so a check on the next turn would run between two queued changes and
  // validate every one of them. A publish waits instead for a whole turn in which no document
  // changed (no delay for a lone edit; any document, so two files edited in turn coalesce too), and
  // for at most MAX_DELAY_MS during a long storm; it carries the version then current. Validation
  // runs in slices of SLICE_MS before the publish, one per turn, so a request that comes in
  // meanwhile (a hover after an edit) is answered from the text and the index, not after the checks.
  const MAX_DELAY_MS = 200;
  const SLICE_MS = 4;
  let changes = 0;
  interface Pending { seen: number; first: number }
  const pending = new Map<string, Pending>();

  function schedule(entry: OpenDocument): void {
    changes++;
    const uri = entry.doc.uri;
    if (pending.has(uri)) return;
    const p: Pending = { seen: -1, first: performance.now() };
    pending.set(uri, p);
    nextTurn(() => settle(uri, p));
  }

  function settle(uri: string, p: Pending): void {
    if (pending.get(uri) !== p) return;
    if (changes !== p.seen && performance.now() - p.first < MAX_DELAY_MS) {
      p.seen = changes;
      nextTurn(() => settle(uri, p));
      return;
    }
    if (!prepared(uri)) {
      p.seen = changes;
      nextTurn(() => settle(uri, p));
      return;
    }
    pending.delete(uri);
    publish(uri);
  }

  /** One slice of the validation of `uri`; true when its diagnostics are ready to publish. */
  function prepared(uri: string): boolean {
    const entry = store.get(uri);
    if (!entry?.service?.prepare || entry.model === undefined) return true;
    const until = performance.now() + SLICE_MS;
    try {
      return entry.service.prepare(entry.model, () => performance.now() < until);
    } catch {
      // The publish runs the same work again and reports what it throws.
      return true;
    }
  }

  function unschedule(uri: string): void {
    pending.delete(uri);
  }

  /** Always publishes for a served document, with the current version: a format that throws gets a diagnostic saying so. */
  function publish(uri: string): void {
    const entry = store.get(uri);
    if (!entry?.service) return;
    let diags: Diagnostic[];
    try {
      diags = entry.tooLarge ? finalizeDiagnostics([documentTooLarge(entry.tooLarge.lines)], settings)
        : entry.model === undefined
          ? finalizeDiagnostics([internalErrorDiagnostic(entry.failure ?? new Error('no model'))], settings)
        : entry.service.diagnostics(entry.model, entry.doc, settings);
    } catch (err) {
      connection.console.error(`diagnostics failed for ${uri}: ${err instanceof Error ? err.stack : String(err)}`);
      diags = finalizeDiagnostics([internalErrorDiagnostic(err)], settings);
    }
    void connection.sendDiagnostics({ uri, version: entry.doc.version, diagnostics: diags.map((d) => toLspDiagnostic(d, uri)) });
  }

  connection.onDidOpenTextDocument(({ textDocument: t }) => {
    schedule(store.open(t.uri, t.languageId, t.version, t.text));
  });
  connection.onDidChangeTextDocument(({ textDocument: t, contentChanges }) => {
    const entry = store.change(t.uri, t.version, contentChanges);
    if (entry) schedule(entry);
  });
  connection.onDidCloseTextDocument(({ textDocument: t }) => {
    unschedule(t.uri);
    store.close(t.uri);
    void connection.sendDiagnostics({ uri: t.uri, diagnostics: [] });
  });

  registerFeatures(connection, store);
  registerCustomRequests(connection, store);
  connection.listen();
}
