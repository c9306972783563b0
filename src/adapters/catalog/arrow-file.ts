/**
 * Reads the one shape of Arrow IPC file (Feather v2) the catalog's column images use: one record
 * batch of flat, non-null, uncompressed Int32 or Float64 columns, little-endian. Anything
 * else (dictionaries, nested or nullable columns, compression, several batches, damage) is
 * `undefined`, never an exception, so the caller can fall back to the Parquet file.
 *
 * Two ways: `readArrowColumns` hands back typed-array views over a whole file's bytes, and
 * `readArrowLayout` asks a callback for just the regions it parses (the file's ends, the footer,
 * the batch header) and says where each column's values lie, so a reader can fetch them straight
 * into memory of its own (column-image.ts reads a year image's columns into a series that way).
 *
 * Why not apache-arrow's reader (which writes these files, and which tests hold this reader
 * against): loading apache-arrow costs a process ~120 ms of CPU before the first file, and its
 * generic reader, run cold, ~0.3 ms a file, and it wants the whole file in memory; this reads a
 * few dozen flatbuffer fields (Arrow's Footer.fbs / Message.fbs / Schema.fbs). It is written for a
 * cold start (a backtest reads once): plain functions over a DataView, whose reads throw
 * RangeError past the end (the bounds check), no destructuring, closures or per-field maps; a
 * first version built of small helper methods cost ~0.7M instructions a file, mostly V8
 * compiling the helpers, against ~0.2M for this (callgrind, 123 files, cold).
 */

/** A column as stored: a view over the file's bytes, valid as long as those bytes are. */
export interface ArrowColumn {
  readonly name: string;
  readonly values: Int32Array | Float64Array;
}

export interface ArrowColumns {
  readonly rows: number;
  readonly metadata: ReadonlyMap<string, string>;
  readonly columns: readonly ArrowColumn[];
}

/** Type union members (Schema.fbs) and MessageHeader.RecordBatch (Message.fbs). */
const TYPE_INT = 2;
const TYPE_FLOATING_POINT = 3;
const PRECISION_DOUBLE = 2;
const HEADER_RECORD_BATCH = 3;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** "ARROW1" as a little-endian uint32 ("ARRO") and uint16 ("W1"): the first and last 6 bytes. */
const MAGIC_HEAD = 0x4f525241;
const MAGIC_TAIL = 0x3157;

/** Where field `i` of the flatbuffer table at `t` lies, or 0 when the table leaves it out. */
function field(v: DataView, t: number, i: number): number {
  const vt = t - v.getInt32(t, true);
  const slot = 4 + 2 * i;
  if (slot >= v.getUint16(vt, true)) return 0;
  const o = v.getUint16(vt + slot, true);
  return o === 0 ? 0 : t + o;
}

/** The table, vector or string that field `i` of table `t` points to, or 0. */
function ref(v: DataView, t: number, i: number): number {
  const p = field(v, t, i);
  return p === 0 ? 0 : p + v.getUint32(p, true);
}

/** An int64 length or offset; anything at or past 2^53 (or negative) is not a file of ours. */
function size64(v: DataView, p: number): number {
  const hi = v.getInt32(p + 4, true);
  if (hi < 0 || hi >= 0x200000) throw new RangeError('int64 out of range');
  return hi * 0x100000000 + v.getUint32(p, true);
}

function text(b: Buffer, v: DataView, s: number): string {
  return b.toString('utf8', s + 4, s + 4 + v.getUint32(s, true));
}

/** Where a column's values lie in the file: `at` is a byte position in the file, `width` 4 (Int32) or 8 (Float64). */
export interface ArrowColumnSpan {
  readonly name: string;
  readonly width: 4 | 8;
  readonly at: number;
}

/** The file's layout without its column values: what a reader needs to fetch each column where it wants it. */
export interface ArrowLayout {
  readonly rows: number;
  readonly metadata: ReadonlyMap<string, string>;
  readonly columns: readonly ArrowColumnSpan[];
}

/**
 * `read(position, length)`: the file's bytes at `position` (exactly `length` of them, or a
 * RangeError). Only the last bytes, the footer and the batch header are asked for, never the
 * column values, so a caller can fetch those straight into their destination.
 */
export type RegionReader = (position: number, length: number) => Uint8Array;

/** The layout of the Arrow IPC file of `size` bytes that `read` fetches from, or undefined when it is not the shape described above. */
export function readArrowLayout(size: number, read: RegionReader): ArrowLayout | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  try {
    return layout(size, read);
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) return undefined;
    throw e;
  }
}

/** The Arrow IPC file in `bytes`, or undefined when it is not the shape described above. */
export function readArrowColumns(bytes: Uint8Array): ArrowColumns | undefined {
  const n = bytes.length;
  const l = readArrowLayout(n, (p, len) => {
    if (p < 0 || len < 0 || p + len > n) throw new RangeError('past the end');
    return bytes.subarray(p, p + len);
  });
  if (!l) return undefined;
  const columns: ArrowColumn[] = [];
  for (const c of l.columns) {
    const at = bytes.byteOffset + c.at;
    if (at % c.width !== 0) return undefined; // Arrow aligns buffers to 8 bytes; anything else is not ours
    columns.push({ name: c.name, values: c.width === 4 ? new Int32Array(bytes.buffer, at, l.rows) : new Float64Array(bytes.buffer, at, l.rows) });
  }
  return { rows: l.rows, metadata: l.metadata, columns };
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
}

function layout(n: number, read: RegionReader): ArrowLayout | undefined {
  // File layout: magic, padding, stream messages, footer flatbuffer, int32 footer length, magic.
  if (n < 18) return undefined;
  const head = view(read(0, 6));
  const tail = view(read(n - 10, 10));
  if (head.getUint32(0, true) !== MAGIC_HEAD || head.getUint16(4, true) !== MAGIC_TAIL || tail.getUint32(4, true) !== MAGIC_HEAD || tail.getUint16(8, true) !== MAGIC_TAIL) return undefined;
  const footerLength = tail.getInt32(0, true);
  const footerAt = n - 10 - footerLength;
  if (footerAt < 8 || footerAt >= n - 10) return undefined;
  // The footer flatbuffer, on its own: its offsets are relative to its first byte.
  const fb = read(footerAt, footerLength);
  let v = view(fb);
  const b = Buffer.from(fb.buffer, fb.byteOffset, fb.length);
  const footer = v.getUint32(0, true);

  // Footer.schema: little-endian, flat Int32 / Float64 fields.
  const schema = ref(v, footer, 1);
  if (schema === 0) return undefined;
  const endianness = field(v, schema, 0);
  if (endianness !== 0 && v.getInt16(endianness, true) !== 0) return undefined;
  const fieldsAt = ref(v, schema, 1);
  const fieldCount = fieldsAt === 0 ? 0 : v.getUint32(fieldsAt, true);
  const names: string[] = [];
  const widths: Array<4 | 8> = [];
  for (let j = 0; j < fieldCount; j++) {
    const e = fieldsAt + 4 + 4 * j;
    const fl = e + v.getUint32(e, true);
    const name = ref(v, fl, 0);
    const tag = field(v, fl, 2);
    const type = ref(v, fl, 3);
    const children = ref(v, fl, 5);
    if (name === 0 || tag === 0 || type === 0 || field(v, fl, 4) !== 0 || (children !== 0 && v.getUint32(children, true) !== 0)) return undefined;
    let width: 0 | 4 | 8 = 0;
    const typeTag = v.getUint8(tag);
    if (typeTag === TYPE_INT) {
      const bits = field(v, type, 0);
      const signed = field(v, type, 1);
      if (bits !== 0 && v.getInt32(bits, true) === 32 && signed !== 0 && v.getUint8(signed) !== 0) width = 4;
    } else if (typeTag === TYPE_FLOATING_POINT) {
      const precision = field(v, type, 0);
      if (precision !== 0 && v.getInt16(precision, true) === PRECISION_DOUBLE) width = 8;
    }
    if (width === 0) return undefined;
    names.push(text(b, v, name));
    widths.push(width);
  }
  const metadata = new Map<string, string>();
  const kvAt = ref(v, schema, 2);
  const kvCount = kvAt === 0 ? 0 : v.getUint32(kvAt, true);
  for (let j = 0; j < kvCount; j++) {
    const e = kvAt + 4 + 4 * j;
    const kv = e + v.getUint32(e, true);
    const key = ref(v, kv, 0);
    const value = ref(v, kv, 1);
    if (key !== 0) metadata.set(text(b, v, key), value === 0 ? '' : text(b, v, value));
  }

  // Footer.recordBatches: exactly one Block { offset: long, metaDataLength: int, bodyLength: long }; no dictionaries.
  const dictionaries = ref(v, footer, 2);
  if (dictionaries !== 0 && v.getUint32(dictionaries, true) !== 0) return undefined;
  const blocks = ref(v, footer, 3);
  if (blocks === 0 || v.getUint32(blocks, true) !== 1) return undefined;
  const blockOffset = size64(v, blocks + 4);
  const metaDataLength = v.getInt32(blocks + 12, true);
  const bodyLength = size64(v, blocks + 20);
  const bodyAt = blockOffset + metaDataLength;
  if (blockOffset < 8 || metaDataLength <= 0 || bodyAt + bodyLength > footerAt) return undefined;

  // The block's message, on its own: 0xFFFFFFFF and its flatbuffer's length (older writers: the length alone).
  const mb = read(blockOffset, metaDataLength);
  v = view(mb);
  const messageAt = v.getInt32(0, true) === -1 ? 8 : 4;
  const message = messageAt + v.getUint32(messageAt, true);
  const headerTag = field(v, message, 1);
  if (headerTag === 0 || v.getUint8(headerTag) !== HEADER_RECORD_BATCH) return undefined;
  const batch = ref(v, message, 2);
  if (batch === 0 || field(v, batch, 3) !== 0) return undefined; // a compressed body is not read here
  const lengthAt = field(v, batch, 0);
  const rows = lengthAt === 0 ? 0 : size64(v, lengthAt);
  const nodes = ref(v, batch, 1);
  const buffers = ref(v, batch, 2);
  if (nodes === 0 || buffers === 0 || v.getUint32(nodes, true) !== fieldCount || v.getUint32(buffers, true) !== 2 * fieldCount) return undefined;

  // Per column: FieldNode { length, null_count } and its two Buffers { offset, length } (validity, values).
  const columns: ArrowColumnSpan[] = [];
  for (let j = 0; j < fieldCount; j++) {
    const node = nodes + 4 + 16 * j;
    if (size64(v, node) !== rows || size64(v, node + 8) !== 0) return undefined;
    const buffer = buffers + 4 + 16 * (2 * j + 1);
    const offset = size64(v, buffer);
    const width = widths[j]!;
    if (size64(v, buffer + 8) < rows * width || offset + rows * width > bodyLength) return undefined;
    columns.push({ name: names[j]!, width, at: bodyAt + offset });
  }
  return { rows, metadata, columns };
}
