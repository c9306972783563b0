/**
 * Many WebSocket text messages as the bytes of their frames (RFC 6455 5.2: FIN, opcode 1, server
 * side so unmasked), in one buffer, for one socket write.
 *
 * Why: the hub sends a 3,000-instrument subscriber tens of thousands of tick frames a second, and
 * `ws.send` per frame cost the simulator more than making the ticks: an options object, a header
 * buffer and two buffered socket writes per frame, a UTF-8 length scan, then a `writev` of two
 * chunks per frame. Here each text is encoded once, straight into place after room for its header.
 * The simulator shares the machine with the daemon it feeds, so its CPU per tick sent is taken
 * from the daemon's.
 */

/** Bytes of the longest header (8-byte length), and the most UTF-8 bytes per UTF-16 unit. */
const MAX_HEADER = 10;
const UTF8_PER_UNIT = 3;

/** Writes the header of an unmasked final text frame of `len` payload bytes at `at`; returns its size. */
function writeHeader(buf: Buffer, at: number, len: number): number {
  buf[at] = 0x81;
  if (len < 126) {
    buf[at + 1] = len;
    return 2;
  }
  if (len < 65_536) {
    buf[at + 1] = 126;
    buf.writeUInt16BE(len, at + 2);
    return 4;
  }
  buf[at + 1] = 127;
  buf.writeUInt32BE(Math.floor(len / 2 ** 32), at + 2);
  buf.writeUInt32BE(len >>> 0, at + 6);
  return 10;
}

/** Size of the header for `len` payload bytes. */
function headerSize(len: number): number {
  return len < 126 ? 2 : len < 65_536 ? 4 : 10;
}

/**
 * The frames of `texts`, in order, as one buffer. Sized for one byte a unit (tick frames are
 * ASCII) plus room for the longest text at its worst, and grown if other text needs more: the
 * buffer waits in the socket's queue while a reader is slow, so it should not be three times the
 * bytes it carries.
 */
export function textFrames(texts: readonly string[]): Buffer {
  let room = 0;
  let longest = 0;
  for (let i = 0; i < texts.length; i++) {
    const n = texts[i]!.length;
    room += MAX_HEADER + n;
    if (n > longest) longest = n;
  }
  let buf = Buffer.allocUnsafe(room + longest * (UTF8_PER_UNIT - 1));
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const s = texts[i]!;
    const worst = MAX_HEADER + s.length * UTF8_PER_UNIT;
    if (at + worst > buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, at + worst));
      buf.copy(bigger, 0, 0, at);
      buf = bigger;
    }
    // The header's size depends on the byte length, known once encoded. A text of 126 to 21,844
    // units has 126 to 65,535 bytes however it encodes: a 4-byte header, so encode first.
    if (s.length >= 126 && s.length * UTF8_PER_UNIT < 65_536) {
      const len = buf.write(s, at + 4, 'utf8');
      writeHeader(buf, at, len);
      at += 4 + len;
    } else {
      const len = Buffer.byteLength(s, 'utf8');
      const h = headerSize(len);
      buf.write(s, at + h, 'utf8');
      writeHeader(buf, at, len);
      at += h + len;
    }
  }
  return buf.subarray(0, at);
}
