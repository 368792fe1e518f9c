import { type ChildProcess } from 'node:child_process';
import { type ProtocolConnection, type Diagnostic, type TextDocumentContentChangeEvent, type Position } from 'vscode-languageserver-protocol/node';
/**
 * Starts the bundled language server over stdio and speaks LSP to it, as an editor would.
 * Diagnostics are awaited by document version, never by sleeping.
 */
export declare class LspClient {
    readonly conn: ProtocolConnection;
    readonly proc: ChildProcess;
    private readonly latest;
    private waiters;
    private readonly versions;
    /** What the server gets when it asks for `npuTrace.diagnostics` settings. */
    settings: unknown;
    readonly stderr: string[];
    private constructor();
    static start(): Promise<LspClient>;
    /** Opens a document and resolves with its first diagnostics. */
    open(uri: string, languageId: string, text: string): Promise<Diagnostic[]>;
    /** Sends incremental changes and resolves with the diagnostics of the new version. */
    change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<Diagnostic[]>;
    close(uri: string): void;
    /** Resolves with the diagnostics published for `version` (or the next ones when undefined). */
    diagnostics(uri: string, version?: number): Promise<Diagnostic[]>;
    request<R>(method: string, params: unknown): Promise<R>;
    at(uri: string, position: Position): {
        textDocument: {
            uri: string;
        };
        position: Position;
    };
    stop(): Promise<void>;
}
