// The timeline reads lines of a file on disk with the CLI's reader: one splitter for CR/LF/BOM.
export { readLines } from '../../cli/lines';
