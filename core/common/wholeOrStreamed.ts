/** A reader of text fed in pieces of any size. */
export interface TextFeed {
  feed(text: string): void;
}

/**
 * Text fed in pieces, kept to be read as one string while it stays within `limit` characters;
 * past that it goes to a streamed reader instead (what was kept first). When the size is known
 * beforehand (a file's size on disk, a gzip trailer) and is past the limit, the reader gets every
 * piece from the start: keeping the first `limit` characters only to hand them on was most of the
 * peak memory of a 600 MB trace. The size is a hint: one too small costs that memory again, one
 * too large reads streamed (with what a streamed reader leaves out) a text that would have fit.
 */
export class WholeOrStreamed<S extends TextFeed> {
  /** The reader, once the text is read streamed. */
  stream: S | undefined;
  /** Pieces joined ~`piece` characters at a time: ten million line-sized strings cost twice the text in headers. */
  private pieces: string[] = [];
  private pending: string[] = [];
  private pendingChars = 0;
  private chars = 0;

  constructor(private readonly limit: number, private readonly open: () => S, private readonly piece = 1 << 20) {}

  /** The text will be about `chars` long: past the limit, it is read streamed from now on. */
  expect(chars: number): void {
    if (chars > this.limit && !this.stream) this.toStream();
  }

  feed(text: string): void {
    if (this.stream) {
      this.stream.feed(text);
      return;
    }
    this.pending.push(text);
    this.pendingChars += text.length;
    this.chars += text.length;
    if (this.pendingChars > this.piece) this.join();
    // Joined, this text could pass what one V8 string holds (≈ 512 MB): it is read streamed.
    if (this.chars > this.limit) this.toStream();
  }

  /** The text fed, as one string; undefined once it is read streamed. */
  text(): string | undefined {
    if (this.stream) return undefined;
    this.join();
    return this.pieces.join('');
  }

  private toStream(): void {
    this.join();
    const s = (this.stream = this.open());
    for (let i = 0; i < this.pieces.length; i++) {
      s.feed(this.pieces[i]);
      this.pieces[i] = '';
    }
    this.pieces = [];
    this.chars = 0;
  }

  private join(): void {
    if (this.pending.length) this.pieces.push(this.pending.length === 1 ? this.pending[0] : this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }
}
