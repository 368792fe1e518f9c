import { TABLES, type TableName } from './schema';

/** Receives a row group: one array per column of the table, all of one length. */
export type RowGroupSink = (table: TableName, columns: unknown[][]) => void;

/** Rows per row group: big enough to compress well, small enough that a group's arrays stay a few MB. */
export const ROW_GROUP_ROWS = 65_536;
/** And at most about this many bytes of values: a file of long lines must not fill a group of 65,536 of them in memory. */
export const ROW_GROUP_BYTES = 16 << 20;

/** The rows of one table not yet handed over, one array per column. */
export class Table {
  cols: unknown[][];
  private bytes = 0;
  constructor(readonly name: TableName, private readonly sink: RowGroupSink, private readonly groupRows: number) {
    this.cols = TABLES[name].map(() => []);
  }

  add(row: unknown[]): void {
    const cols = this.cols;
    let bytes = this.bytes;
    for (let i = 0; i < cols.length; i++) {
      const v = row[i] ?? null;
      cols[i].push(v);
      bytes += typeof v === 'string' ? v.length : 8;
    }
    this.bytes = bytes;
    if (cols[0].length >= this.groupRows || bytes >= ROW_GROUP_BYTES) this.flush();
  }

  flush(): void {
    if (!this.cols[0].length) return;
    const cols = this.cols;
    this.cols = cols.map(() => []);
    this.bytes = 0;
    this.sink(this.name, cols);
  }
}

