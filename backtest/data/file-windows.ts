/**
 * A file read in windows of whole lines rather than at once (the CSV candle loader's input): a
 * million-row minute file is ~63 MB of bytes that would otherwise sit in memory next to the
 * columns they fill, for nothing once parsed.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Bytes of the file read per window (plus the carried part line). */
const WINDOW_BYTES = 4 << 20;

/**
 * Each window is the part line carried from the previous one plus the next 4 MB; two buffers take
 * turns. `end` is where the window's last whole line ends (the file's end in the last window).
 */
export class FileWindows {
  readonly size: number;
  private readonly fd: number;
  private offset = 0;
  private bufs: [Buffer, Buffer];
  private turn = 0;
  private readonly window: number;

  /** `windowBytes`: bytes read per window (tests use small ones to cut lines at every place). */
  constructor(path: string, windowBytes = WINDOW_BYTES) {
    if (!(windowBytes >= 1)) throw new RangeError(`FileWindows: windowBytes must be >= 1, got ${windowBytes}`);
    this.window = windowBytes;
    this.fd = openSync(path, 'r');
    try {
      this.size = fstatSync(this.fd).size;
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
    const cap = Math.min(this.size, windowBytes) + 4096;
    this.bufs = [Buffer.allocUnsafe(cap), Buffer.allocUnsafe(cap)];
  }

  /** The next window, starting with `carry` (the unparsed tail of the last one); undefined at the end of the file. */
  next(carry: Uint8Array): { bytes: Uint8Array; end: number } | undefined {
    if (this.offset >= this.size) return undefined;
    const want = Math.min(this.window, this.size - this.offset);
    let buf = this.bufs[this.turn]!;
    if (buf.length < carry.length + want) {
      // A line longer than a window: this buffer grows to hold it.
      buf = Buffer.allocUnsafe(carry.length + want + 4096);
      this.bufs[this.turn] = buf;
    }
    this.turn ^= 1;
    buf.set(carry, 0);
    let got = carry.length;
    while (got < carry.length + want) {
      const r = readSync(this.fd, buf, got, carry.length + want - got, this.offset);
      if (r === 0) break;
      got += r;
      this.offset += r;
    }
    if (got === carry.length) {
      this.offset = this.size;
      return carry.length > 0 ? { bytes: buf.subarray(0, got), end: got } : undefined;
    }
    const bytes = buf.subarray(0, got);
    if (this.offset >= this.size) return { bytes, end: got };
    const lf = bytes.lastIndexOf(10);
    return { bytes, end: lf < 0 ? 0 : lf + 1 };
  }

  close(): void {
    closeSync(this.fd);
  }
}
