/** Candles published in a real Redis by content hash, and read back as a worker reads them. */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { seriesFromRows, type CandleSeries } from '../../../backtest/data/candle-series.js';
import { seriesHash } from '../../../backtest/queue/candle-publication.js';
import { RedisCandlePublisher, RedisCandleSource, candleKey } from '../../../backtest/queue/redis-candles.js';
import { TEST_REDIS_URL, redisAvailable } from '../../support/redis.js';

const available = await redisAvailable();

function series(instrument: string, n: number, fractionalVolume: boolean): CandleSeries {
  const rows = Array.from({ length: n }, (_, i) => {
    const p = 100_000 + ((i * 7919) % 503) - 250;
    return { start: 1_700_000_000_000 + i * 60_000, ts: 1_700_000_060_000 + i * 60_000, open: p, high: p + 40, low: p - 35, close: p + 5, volume: fractionalVolume ? i * 0.37 : i * 10, oi: 5_000 + i };
  });
  return seriesFromRows(instrument, '1minute', rows, 75);
}

const columns = (s: CandleSeries): number[][] => [s.start, s.ts, s.open, s.high, s.low, s.close, s.volume, s.oi ?? []].map((c) => [...c]);

describe.skipIf(!available)('candles published in Redis', () => {
  const admin = new Redis(TEST_REDIS_URL);
  const keys: string[] = [];
  afterAll(async () => {
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
  });

  it('come back exactly as published, whole-number and fractional columns alike, in shared memory', async () => {
    const a = series('AAA', 5_000, false);
    const b = series('BBB', 3_000, true);
    const pub = new RedisCandlePublisher(TEST_REDIS_URL);
    const refs = await pub.publish([a, b]);
    keys.push(...refs.map((r) => candleKey(r.hash)));
    expect(refs.map((r) => [r.store, r.hash, r.instrument, r.length])).toEqual([
      ['redis', seriesHash(a), 'AAA', 5_000],
      ['redis', seriesHash(b), 'BBB', 3_000],
    ]);
    // Publishing again only refreshes the expiry.
    expect(await pub.publish([a])).toEqual([refs[0]]);
    await pub.close();
    const src = new RedisCandleSource(TEST_REDIS_URL);
    const [ra, rb] = await Promise.all(refs.map((r) => src.load(r)));
    expect(columns(ra!)).toEqual(columns(a));
    expect(columns(rb!)).toEqual(columns(b));
    expect(rb!.lotSize).toBe(75);
    expect(ra!.close.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The second read of a series is the worker's cache, not Redis.
    await src.load(refs[0]!);
    expect(src.fetched).toBe(2);
    await src.close();
  });

  it('are refused when what Redis holds does not hash to the ref, or is gone', async () => {
    const a = series('CCC', 1_000, false);
    const pub = new RedisCandlePublisher(TEST_REDIS_URL);
    const [ref] = await pub.publish([a]);
    const other = await pub.publish([series('CCC', 1_000, true)]);
    await pub.close();
    keys.push(candleKey(ref!.hash), candleKey(other[0]!.hash));
    // Another series' volume column under this hash.
    await admin.hset(candleKey(ref!.hash), 'volume', (await admin.hgetBuffer(candleKey(other[0]!.hash), 'volume'))!);
    const src = new RedisCandleSource(TEST_REDIS_URL);
    await expect(src.load(ref!)).rejects.toThrow(/candles CCC: what Redis holds hashes to \w+, not \w+/);
    await expect(src.load({ ...ref!, hash: '0'.repeat(64) })).rejects.toThrow(/are not in Redis under tarang:candles:0+: expired or removed; run the sweep again/);
    await src.close();
  });
});
