/**
 * The manifest of one series (an instrument at an interval): which months it has, how many
 * candles each holds and their first and last start, the lot size the source gave, and which
 * time ranges were downloaded whole from the broker (so a second download of the same history
 * reads the catalog instead of calling the broker). Written atomically (temp file + rename).
 *
 * Validated by zod when written, and stamped with `check`, a hash of the rest of it as compact
 * JSON: a read whose manifest still matches its stamp (it is as tarang wrote it) skips zod, which
 * costs a backtest's one cold read of a 123-month series ~5 ms of CPU (zod compiles its schema on
 * first use), against well under a millisecond for JSON.stringify and the hash. A manifest
 * without a stamp (older, or edited by hand) or not matching it is validated by zod as before.
 * The hash is cyrb53 in a few lines of JavaScript (below), not node:crypto's SHA-256: the stamp
 * has to notice an edit, not resist an attacker, and the first createHash in a process loads
 * enough code to draw a full collection (~8 ms of CPU, --trace-gc) inside the read.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Interval } from '../../core/candles.js';
import { formatZodIssues } from '../../core/zod-issues.js';
import { CatalogError } from './catalog-error.js';
import { MONTH_RE } from './catalog-layout.js';

const MonthEntry = z.object({
  rows: z.number().int().nonnegative(),
  /** Start of the first and last candle, epoch ms. */
  first: z.number().int(),
  last: z.number().int(),
  bytes: z.number().int().nonnegative(),
  hasOi: z.boolean(),
});
export type MonthEntry = z.infer<typeof MonthEntry>;

const ManifestSchema = z.object({
  version: z.literal(1),
  instrument: z.string().min(1),
  interval: z.string().min(1),
  lotSize: z.number().int().positive().optional(),
  /** Where the candles came from, newest last (file paths, `broker`). */
  sources: z.array(z.string()),
  months: z.record(z.string().regex(MONTH_RE), MonthEntry),
  /** Ranges [from, to) (epoch ms) downloaded whole from the broker, merged and sorted. */
  covered: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export function emptyManifest(instrument: string, interval: Interval): Manifest {
  return { version: 1, instrument, interval, sources: [], months: {}, covered: [] };
}

/** The manifest at `file`, or undefined when the series has none yet. A broken one is an error naming the file. */
export function readManifest(file: string): Manifest | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CatalogError(`cannot read catalog manifest ${file}: ${(e as Error).message}`, { file }, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CatalogError(`catalog manifest ${file} is not JSON (${(e as Error).message}); re-import the series or delete its folder`, { file }, { cause: e });
  }
  const stamped = asStamped(json);
  if (stamped) return stamped;
  const r = ManifestSchema.safeParse(json);
  if (!r.success) throw new CatalogError(`catalog manifest ${file}: ${formatZodIssues(r.error)}`, { file });
  return r.data;
}

/**
 * cyrb53 (a widely used 53-bit string hash) over the UTF-8 bytes of `compactJson` taken four at a
 * time as little-endian words (three times fewer steps than one per character: ~0.3 ms against
 * ~1-2 ms for a 123-month manifest, cold), as `cyrb53w:` and base 36. On a big-endian machine the
 * words differ, the stamp never matches, and manifests are validated by zod: slower, never wrong.
 */
function stamp(compactJson: string): string {
  const bytes = Buffer.from(compactJson, 'utf8');
  const n = bytes.length >> 2;
  // Buffer.from aligns its memory to 8 bytes (own buffer or pool slot); copy in the odd case it does not.
  const words = bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, n) : new Int32Array(Uint8Array.from(bytes.subarray(0, 4 * n)).buffer);
  let h1 = 0xdeadbeef ^ bytes.length;
  let h2 = 0x41c6ce57 ^ bytes.length;
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  for (let i = 4 * n; i < bytes.length; i++) {
    const c = bytes[i]!;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `cyrb53w:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

/** The manifest in `json` when it carries the `check` writeManifest stamped it with, still matching the rest of it. */
function asStamped(json: unknown): Manifest | undefined {
  if (typeof json !== 'object' || json === null || !('check' in json) || typeof json.check !== 'string') return undefined;
  const { check, ...rest } = json;
  return stamp(JSON.stringify(rest)) === check ? (rest as Manifest) : undefined;
}

/** Writes `m` (checked by zod first: a bad manifest is a bug here, never written) with its `check` stamp. */
export function writeManifest(file: string, m: Manifest): void {
  mkdirSync(dirname(file), { recursive: true });
  const months = Object.fromEntries(Object.entries(m.months).sort(([a], [b]) => a.localeCompare(b)));
  const body = ManifestSchema.parse({ ...m, months });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ check: stamp(JSON.stringify(body)), ...body }, null, 1)}\n`);
  renameSync(tmp, file);
}

/** Adds [from, to) to sorted, merged ranges (touching ranges join). */
export function addCovered(ranges: ReadonlyArray<readonly [number, number]>, from: number, to: number): Array<[number, number]> {
  const all = [...ranges.map(([a, b]) => [a, b] as [number, number]), [from, to] as [number, number]].sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

export function isCovered(ranges: ReadonlyArray<readonly [number, number]>, from: number, to: number): boolean {
  return ranges.some(([a, b]) => a <= from && to <= b);
}
