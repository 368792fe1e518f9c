/**
 * Line and character of offsets in text fed in pieces of any size (a large JSON document read as
 * it streams), counting line ends as the line readers do (`\n`, `\r\n`, a lone `\r`), also when a
 * piece ends between the CR and the LF. Offsets are asked in increasing order, each in the piece
 * last given or at its end; the cursor moves on from the last one asked, so the text is scanned
 * once, with `indexOf` where a piece holds no CR.
 */
export class LineCursor {
  /** Line of the offset last asked. */
  line = 0;
  /** Offset where that line starts. */
  lineStart = 0;
  private text = '';
  /** Offset of the piece's first character. */
  private base = 0;
  /** Offset scanned up to. */
  private done = 0;
  private hasCr = false;
  /** The last character scanned was a CR: an LF right after it ends no other line. */
  private afterCr = false;

  /** The next piece of the text. */
  piece(text: string): void {
    this.to(this.base + this.text.length);
    this.base += this.text.length;
    this.text = text;
    this.hasCr = text.indexOf('\r') >= 0;
  }

  /** Line and character of offset `at`. */
  position(at: number): { line: number; character: number } {
    this.to(at);
    return { line: this.line, character: at - this.lineStart };
  }

  /** Moves on to offset `at`, counting the line ends before it. */
  to(at: number): void {
    if (at <= this.done) return;
    const t = this.text;
    const base = this.base;
    let k = this.done - base;
    const end = at - base;
    if (!this.hasCr && !this.afterCr) {
      for (let j = t.indexOf('\n', k); j >= 0 && j < end; j = t.indexOf('\n', j + 1)) {
        this.line++;
        this.lineStart = base + j + 1;
      }
    } else {
      for (; k < end; k++) {
        const c = t.charCodeAt(k);
        if (c === 10) {
          if (!this.afterCr) this.line++;
          this.lineStart = base + k + 1;
          this.afterCr = false;
        } else if (c === 13) {
          this.line++;
          this.lineStart = base + k + 1;
          this.afterCr = true;
        } else this.afterCr = false;
      }
    }
    this.done = at;
  }
}
