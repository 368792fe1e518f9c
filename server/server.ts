import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './main';

// The desktop entry (dist/server.js): a Node process talking IPC to the extension host.
startServer(createConnection(ProposedFeatures.all));
