import type { Diagnostic } from '../core/common/diagnostic';
interface FileResult {
    file: string;
    diagnostics: Diagnostic[];
}
export declare class UsageError extends Error {
}
export declare function checkFile(file: string, max: number): Promise<FileResult>;
export declare function check(args: string[]): Promise<number>;
export {};
