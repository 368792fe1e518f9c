/**
 * Streams a file's lines (`\n`, `\r\n` or `\r`) to `onLine` without holding the whole file as one
 * string. A callback, not an async iterator: one promise per line would cost more than the parsing.
 * `.gz` files are decompressed on the fly.
 */
export declare function forEachLine(file: string, onLine: (line: string, lineNo: number) => void): Promise<number>;
declare const decodeUtf8: (b: Uint8Array, s: number, e: number) => string;
/**
 * Streams a file's lines as byte ranges of the chunk that holds them, for checkers that can work on
 * bytes. Line ends are counted as LSP does (`\n`, `\r\n`, lone `\r`): a line holding a lone CR is
 * decoded and split, and its pieces go to `onText`.
 */
export declare function forEachLineBytes(file: string, onBytes: (b: Uint8Array, s: number, e: number, lineNo: number, decode: typeof decodeUtf8) => void, onText: (line: string, lineNo: number) => void): Promise<number>;
export {};
