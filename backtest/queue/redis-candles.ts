/**
 * Candles published in Redis, by content hash: one Redis hash `tarang:candles:<sha256>` holding the
 * series' header and each column as deflated bytes. Whole-number columns (times in ms, prices in
 * paise, volumes) are stored as differences from the previous value first, which deflate squeezes
 * far better (minute times become one repeated number); the differences of safe integers are
 * exact, and a column with any fraction is stored as is. The reader re-hashes what it decoded and
 * refuses a series whose hash differs, so a worker never runs on candles other than the published
 * ones. Columns are decoded straight into SharedArrayBuffers: the worker's lanes (threads) then
 * read the same bytes without a copy.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { Redis } from 'ioredis';
import type { CandleSeries } from '../data/candle-series.js';
import { COLUMNS, columnOf, headerOf, seriesHash, type CandlePublisher, type CandleSource, type ColumnName, type SeriesHeader, type SeriesRef } from './candle-publication.js';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** Published candles stay this long after their last publication (a sweep re-publishes, refreshing it). */
const TTL_SECONDS = 7 * 86_400;

export const candleKey = (hash: string): string => `tarang:candles:${hash}`;

interface StoredHeader extends SeriesHeader {
  /** Columns stored as differences (whole numbers only). */
  readonly delta: readonly ColumnName[];
}

function allSafeIntegers(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isSafeInteger(a[i]!)) return false;
  // Differences of two safe integers can leave the safe range only near 2^53; keep it simple and exact.
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]!) > 2 ** 51) return false;
  return true;
}

function deltas(a: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  let prev = 0;
  for (let i = 0; i < a.length; i++) {
    out[i] = a[i]! - prev;
    prev = a[i]!;
  }
  return out;
}

function undelta(a: Float64Array): void {
  for (let i = 1; i < a.length; i++) a[i] = a[i]! + a[i - 1]!;
}

const bytesOf = (a: Float64Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export class RedisCandlePublisher implements CandlePublisher {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
    // Failures surface as the rejected command; the event would only repeat them.
    this.redis.on('error', () => undefined);
  }

  async publish(series: readonly CandleSeries[]): Promise<SeriesRef[]> {
    const refs: SeriesRef[] = [];
    for (const s of series) {
      const hash = seriesHash(s);
      const key = candleKey(hash);
      // Already there (an earlier sweep over the same candles): only its expiry moves.
      if ((await this.redis.expire(key, TTL_SECONDS)) === 0) {
        const delta: ColumnName[] = [];
        const fields: Record<string, Buffer | string> = {};
        for (const c of COLUMNS) {
          const col = columnOf(s, c);
          if (!col) continue;
          const d = allSafeIntegers(col);
          if (d) delta.push(c);
          fields[c] = await deflate(bytesOf(d ? deltas(col) : col));
        }
        const header: StoredHeader = { ...headerOf(s), delta };
        fields['header'] = JSON.stringify(header);
        // Written under a temporary key and renamed: a worker never reads half a series.
        const tmp = `${key}:writing:${process.pid}`;
        await this.redis.multi().hset(tmp, fields).expire(tmp, TTL_SECONDS).rename(tmp, key).exec();
      }
      refs.push({ store: 'redis', hash, instrument: s.instrument, interval: s.interval, length: s.length });
    }
    return refs;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** Keeps the series this worker read, newest last, up to `maxBytes` of columns. */
export class RedisCandleSource implements CandleSource {
  private readonly redis: Redis;
  private readonly cache = new Map<string, Promise<CandleSeries>>();
  private readonly sizes = new Map<string, number>();

  constructor(
    url: string,
    private readonly maxBytes = 2 ** 31,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
    this.redis.on('error', () => undefined);
  }

  /** Series read from Redis so far (cache misses), for the worker's log and tests. */
  fetched = 0;

  load(ref: SeriesRef): Promise<CandleSeries> {
    if (ref.store !== 'redis') return Promise.reject(new Error(`candles ${ref.instrument} are in a ${String(ref.store)} store this worker cannot read`));
    const hit = this.cache.get(ref.hash);
    if (hit) {
      // Most recently used goes last.
      this.cache.delete(ref.hash);
      this.cache.set(ref.hash, hit);
      return hit;
    }
    const p = this.read(ref);
    this.cache.set(ref.hash, p);
    p.then(
      (s) => this.keep(ref.hash, s),
      () => this.cache.delete(ref.hash),
    );
    return p;
  }

  private keep(hash: string, s: CandleSeries): void {
    this.sizes.set(hash, s.length * 8 * (s.oi ? 8 : 7));
    let total = [...this.sizes.values()].reduce((a, b) => a + b, 0);
    for (const old of [...this.cache.keys()]) {
      if (total <= this.maxBytes || old === hash) break;
      total -= this.sizes.get(old) ?? 0;
      this.cache.delete(old);
      this.sizes.delete(old);
    }
  }

  private async read(ref: SeriesRef): Promise<CandleSeries> {
    const key = candleKey(ref.hash);
    const stored = await this.redis.hgetallBuffer(key);
    const headerText = stored['header']?.toString('utf8');
    if (!headerText) throw new Error(`candles ${ref.instrument} (${ref.hash.slice(0, 12)}) are not in Redis under ${key}: expired or removed; run the sweep again to publish them`);
    this.fetched++;
    const header = JSON.parse(headerText) as StoredHeader;
    const cols: Partial<Record<ColumnName, Float64Array>> = {};
    for (const c of COLUMNS) {
      const packed = stored[c];
      if (!packed) continue;
      const raw = await inflate(packed);
      if (raw.byteLength !== header.length * 8) throw new Error(`candles ${ref.instrument} (${ref.hash.slice(0, 12)}): column ${c} holds ${raw.byteLength} bytes, expected ${header.length * 8}`);
      const col = new Float64Array(new SharedArrayBuffer(raw.byteLength));
      new Uint8Array(col.buffer).set(raw);
      if (header.delta.includes(c)) undelta(col);
      cols[c] = col;
    }
    const need = (c: ColumnName): Float64Array => {
      const col = cols[c];
      if (!col) throw new Error(`candles ${ref.instrument} (${ref.hash.slice(0, 12)}): column ${c} is missing`);
      return col;
    };
    const series: CandleSeries = {
      instrument: header.instrument,
      interval: header.interval,
      length: header.length,
      start: need('start'),
      ts: need('ts'),
      open: need('open'),
      high: need('high'),
      low: need('low'),
      close: need('close'),
      volume: need('volume'),
      ...(header.oi ? { oi: need('oi') } : {}),
      ...(header.lotSize !== undefined ? { lotSize: header.lotSize } : {}),
    };
    const got = seriesHash(series);
    if (got !== ref.hash) throw new Error(`candles ${ref.instrument}: what Redis holds hashes to ${got.slice(0, 12)}, not ${ref.hash.slice(0, 12)}`);
    return series;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
