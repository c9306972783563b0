/**
 * A report document written to a file as `jsonText` would write it, byte for byte, without ever
 * holding the whole text: a 1M-candle run's document is ~8 MB of JSON (its fills and trades), and
 * the text plus the UTF-8 copy `writeFileSync` makes of it were the peak of the run's memory.
 *
 * Each top-level member is stringified on its own, wrapped in a one-member object so that
 * JSON.stringify indents it exactly as it would inside the whole document; long arrays of plain
 * values go in slices the same way. The pieces are written as they are made.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Array elements stringified per piece: tens of kB of text. Text above ~128 kB goes to V8's large
 * object space, which a run this short never collects: 2,000-fill pieces (~470 kB each) piled up
 * 8 MB there.
 */
const SLICE = 256;

/** `{"key": value}` indented by two, as a member of an object one level deep: `  "key": ...` (empty when JSON leaves it out). */
function member(key: string, value: unknown): string {
  const text = JSON.stringify({ [key]: value }, null, 2);
  // `{\n` + member + `\n}`, or `{}` when the value is not representable (undefined, a function).
  return text.length > 2 ? text.slice(2, -2) : '';
}

/**
 * A long array of a document made row by row from its source when written: writeJsonFile builds
 * and writes one slice of rows at a time (a 1M-candle run's 18,000 fills and 9,000 trades were
 * ~7 MB of objects that lived, and were moved to the old generation, until the text was written).
 * Anything else that stringifies it (JSON.stringify, jsonText) gets the whole array from toJSON.
 */
export class JsonRows<T> {
  constructor(
    readonly source: readonly T[],
    readonly row: (item: T) => unknown,
  ) {}

  get length(): number {
    return this.source.length;
  }

  toJSON(): unknown[] {
    return this.source.map((x) => this.row(x));
  }
}

/** Plain data only (no toJSON, no prototype but Object's or Array's): what the slices may split. */
function plainElements(a: readonly unknown[]): boolean {
  for (const x of a) {
    if (x === null || typeof x !== 'object') continue;
    const proto = Object.getPrototypeOf(x) as unknown;
    if ((proto !== Object.prototype && proto !== Array.prototype) || typeof (x as { toJSON?: unknown }).toJSON === 'function') return false;
  }
  return true;
}

/** Writes `doc` to `path` as `${JSON.stringify(doc, null, 2)}\n`. */
export function writeJsonFile(path: string, doc: Record<string, unknown>): void {
  const fd = openSync(path, 'w');
  try {
    const write = (s: string): void => {
      writeSync(fd, s);
    };
    let first = true;
    const keys = Object.keys(doc);
    for (const key of keys) {
      const value = doc[key];
      if (value instanceof JsonRows && value.length > 0) {
        write(`${first ? '{\n' : ',\n'}  ${JSON.stringify(key)}: [\n`);
        first = false;
        const rows = value as JsonRows<unknown>;
        for (let i = 0; i < rows.length; i += SLICE) {
          const text = member(key, rows.source.slice(i, i + SLICE).map((x) => rows.row(x)));
          write(`${i > 0 ? ',\n' : ''}${text.slice(text.indexOf('[\n') + 2, -4)}`);
        }
        write('\n  ]');
        continue;
      }
      if (Array.isArray(value) && value.length > SLICE && plainElements(value)) {
        // `  "key": [\n`, the elements (each `    ...`) joined by `,\n`, then `\n  ]`.
        write(`${first ? '{\n' : ',\n'}  ${JSON.stringify(key)}: [\n`);
        first = false;
        for (let i = 0; i < value.length; i += SLICE) {
          const text = member(key, value.slice(i, i + SLICE));
          // `  "key": [\n` ... `\n  ]`: the elements in between, indented for depth 2.
          const open = text.indexOf('[\n') + 2;
          write(`${i > 0 ? ',\n' : ''}${text.slice(open, -4)}`);
        }
        write('\n  ]');
        continue;
      }
      const m = member(key, value);
      if (m === '') continue;
      write(`${first ? '{\n' : ',\n'}${m}`);
      first = false;
    }
    write(first ? '{}\n' : '\n}\n');
  } finally {
    closeSync(fd);
  }
}
