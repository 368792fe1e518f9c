/**
 * Lines of text fed in chunks of any size, counted only as far as they are asked for: the line and
 * character of an offset in the current chunk, without holding the text read before it. A compact
 * chunk (one line of a megabyte) is looked through for a line break once, not once per question.
 */
export class ChunkLines {
  /** Characters before the current chunk. */
  private base = 0;
  /** Line breaks before the current chunk. */
  private before = 0;
  /** Where in the current chunk counting got to, the line there and the offset its line starts at. */
  private countedTo = 0;
  private counted = 0;
  private start = 0;
  /** The first '\n' of the chunk at or after `countedTo` (-1: none; -2: not looked for yet). */
  private nextBreak = -2;
  private chunk = '';

  /** Offset of the current chunk's first character in the whole text. */
  get offset(): number {
    return this.base;
  }

  /** Starts the next chunk (after `end` of the one before). */
  next(chunk: string): void {
    this.chunk = chunk;
    this.countedTo = 0;
    this.nextBreak = -2;
    this.counted = this.before;
  }

  /** 0-based line of the current chunk's character `i` (asked in increasing `i` within a chunk). */
  lineAt(i: number): number {
    const chunk = this.chunk;
    let j = this.nextBreak === -2 ? chunk.indexOf('\n', this.countedTo) : this.nextBreak;
    while (j >= 0 && j < i) {
      this.counted++;
      this.start = this.base + j + 1;
      j = chunk.indexOf('\n', j + 1);
    }
    this.nextBreak = j;
    this.countedTo = i;
    return this.counted;
  }

  /** The character (in its line) of the current chunk's character `i`, after `lineAt(i)`. */
  characterAt(i: number): number {
    return this.base + i - this.start;
  }

  /** The current chunk is read: counts its remaining lines. */
  end(): void {
    this.before = this.lineAt(this.chunk.length);
    this.base += this.chunk.length;
    this.chunk = '';
  }

  /** Line breaks read so far (in the chunks ended). */
  get lines(): number {
    return this.before;
  }

  /** Character in its line of the offset just after the chunks ended. */
  get lastCharacter(): number {
    return this.base - this.start;
  }
}
