/**
 * Splits a byte stream into newline-terminated lines without ever holding
 * more than `maxLineBytes` of one line in memory. What happens to a longer
 * line is the caller's choice:
 * - `discard` (stdout): the whole line is dropped and reported once;
 * - `truncate` (stderr): its first `maxLineBytes` are kept and marked.
 */
export interface LineSplitterOptions {
  maxLineBytes: number;
  overflow: 'discard' | 'truncate';
  /** A complete line, without its `\n` (and without a trailing `\r`). */
  onLine: (line: Buffer, truncated: boolean) => void;
  /** `discard` mode: a line passed the limit and is being dropped. */
  onOverflow?: (bufferedBytes: number) => void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside an over-long line: bytes are skipped until the next newline. */
  private skipping = false;

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      if (this.skipping) this.skipping = false;
      else this.emit(false);
      start = newline + 1;
    }
  }

  /** Deliver a trailing line that never got its newline (e.g. at process exit). */
  flush(): void {
    if (!this.skipping && this.size > 0) this.emit(false);
    this.skipping = false;
    this.reset();
  }

  /** Bytes of the current, unfinished line held in memory. */
  get bufferedBytes(): number {
    return this.size;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    const room = this.options.maxLineBytes - this.size;
    if (piece.length <= room) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    if (this.options.overflow === 'truncate') {
      if (room > 0) {
        this.chunks.push(piece.subarray(0, room));
        this.size += room;
      }
      this.emit(true);
    } else {
      const buffered = this.size + piece.length;
      this.reset();
      this.options.onOverflow?.(buffered);
    }
    this.skipping = true;
  }

  private emit(truncated: boolean): void {
    let line = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    this.reset();
    this.options.onLine(line, truncated);
  }

  private reset(): void {
    this.chunks = [];
    this.size = 0;
  }
}
