import {
  createConnection, ProposedFeatures, TextDocumentSyncKind, type InitializeResult,
} from 'vscode-languageserver/node';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { defaultDiagnosticSettings, normalizeSettings, type DiagnosticSettings } from '../core/common/settings';
import { toLspDiagnostic } from './convert';
import { DocumentStore, type OpenDocument } from './documents';
import { registerFeatures } from './features';
import { registerCustomRequests } from './requests';
import { services } from './services';

const connection = createConnection(ProposedFeatures.all);
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

// Diagnostics are computed once per burst of edits: a pending timer coalesces keystrokes.
const pending = new Map<string, NodeJS.Immediate>();
function schedule(entry: OpenDocument): void {
  const uri = entry.doc.uri;
  const old = pending.get(uri);
  if (old) clearImmediate(old);
  pending.set(uri, setImmediate(() => {
    pending.delete(uri);
    publish(uri);
  }));
}

function publish(uri: string): void {
  const entry = store.get(uri);
  if (!entry?.service || entry.model === undefined) return;
  let diags;
  try {
    diags = entry.service.diagnostics(entry.model, entry.doc, settings);
  } catch (err) {
    connection.console.error(`diagnostics failed for ${uri}: ${String(err)}`);
    return;
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
  store.close(t.uri);
  void connection.sendDiagnostics({ uri: t.uri, diagnostics: [] });
});

registerFeatures(connection, store);
registerCustomRequests(connection, store);
connection.listen();
