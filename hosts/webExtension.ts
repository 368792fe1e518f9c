// The web extension's bundle entry (package.json "browser", dist/web/extension.js): the browser
// client, given the language server to start in the extension host itself when no web worker runs
// (client/browser/serverTransport.ts). The one place client and server code meet in a bundle, so
// neither folder imports the other.
import type * as vscode from 'vscode';
import { activateBrowser, deactivateBrowser } from '../client/browser/extension';
import { startServerOnPort } from '../server/inProcess';

export const activate = (context: vscode.ExtensionContext): Promise<void> => activateBrowser(context, startServerOnPort);
export const deactivate = deactivateBrowser;
