/**
 * Streams a file's lines (`\n`, `\r\n` or `\r`) to `onLine` without holding the whole file as one
 * string. A callback, not an async iterator: one promise per line would cost more than the parsing.
 * `.gz` files are decompressed on the fly. `onProgress` gets the bytes read from disk so far.
 */
export declare function forEachLine(file: string, onLine: (line: string, lineNo: number) => void, onProgress?: (bytesRead: number) => void): Promise<number>;
