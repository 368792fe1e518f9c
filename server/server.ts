import {
  createConnection, ProposedFeatures, TextDocumentSyncKind, type InitializeResult,
} from 'vscode-languageserver/node';
import type { Diagnostic } from '../core/common/diagnostic';
import { defaultDiagnosticSettings, finalizeDiagnostics, normalizeSettings, type DiagnosticSettings } from '../core/common/settings';
import { internalErrorDiagnostic, toLspDiagnostic } from './convert';
import { DocumentStore, type OpenDocument } from './documents';
import { registerFeatures } from './features';
import { registerCustomRequests } from './requests';
import { services } from './services';

const connection = createConnection(ProposedFeatures.all);
const store = new DocumentStore(services, (uri, err) => connection.console.error(`parsing ${uri} failed: ${err instanceof Error ? err.stack : String(err)}`));
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

// Diagnostics are published at most every MIN_PUBLISH_MS per document: an edit after a quiet spell
// is published at once, the edits of a burst together at the end of the interval, with the version
// then current. (vscode-jsonrpc handles one message per event-loop turn, so an immediate would run
// between two queued changes and validate every one of them.)
const MIN_PUBLISH_MS = 100;
const timers = new Map<string, NodeJS.Timeout>();
const lastPublish = new Map<string, number>();

function schedule(entry: OpenDocument): void {
  const uri = entry.doc.uri;
  if (timers.has(uri)) return;
  const wait = Math.max(0, (lastPublish.get(uri) ?? -Infinity) + MIN_PUBLISH_MS - performance.now());
  timers.set(uri, setTimeout(() => {
    timers.delete(uri);
    publish(uri);
    lastPublish.set(uri, performance.now());
  }, wait));
}

function unschedule(uri: string): void {
  clearTimeout(timers.get(uri));
  timers.delete(uri);
  lastPublish.delete(uri);
}

/** Always publishes for a served document, with the current version: a format that throws gets a diagnostic saying so. */
function publish(uri: string): void {
  const entry = store.get(uri);
  if (!entry?.service) return;
  let diags: Diagnostic[];
  try {
    diags = entry.model === undefined
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
