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

// Diagnostics are computed once per burst of edits. vscode-jsonrpc handles one message per
// event-loop turn, so an immediate would run between two queued changes and validate each of them:
// a timer waits for a quiet period instead, bounded so that a long storm still publishes regularly.
/** Publish when no change came for this long... */
const QUIET_MS = 50;
/** ...but at the latest this long after the first change not yet published. */
const MAX_DELAY_MS = 250;
const pending = new Map<string, { timer: NodeJS.Timeout; first: number }>();

function schedule(entry: OpenDocument): void {
  const uri = entry.doc.uri;
  const now = performance.now();
  const old = pending.get(uri);
  if (old) clearTimeout(old.timer);
  const first = old?.first ?? now;
  const due = Math.min(now + QUIET_MS, first + MAX_DELAY_MS);
  pending.set(uri, {
    first,
    timer: setTimeout(() => {
      pending.delete(uri);
      publish(uri);
    }, Math.max(0, due - now)),
  });
}

function unschedule(uri: string): void {
  clearTimeout(pending.get(uri)?.timer);
  pending.delete(uri);
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
