/**
 * Adapts the broker adapter (src/adapters/broker: `Broker`, `BrokerVenue`, the market-data stream,
 * the instrument-master loader) to the daemon's `BrokerSession` seam. Nothing here talks HTTP or
 * WebSocket itself. Each market-data shard's connection change (with its typed cause: dropped,
 * stalled, frames flowing again) becomes a `lifecycle` connected/disconnected event (source
 * `ws:prices#<shard>`), which health and alerts follow; the order stream's come through the venue.
 */
import { map, merge, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { LifecycleEvent, TickEvent } from '../core/events.js';
import type { MasterSource } from '../core/instrument-master.js';
import type { Instrument } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import { BrokerVenue } from '../adapters/broker/venue.js';
import type { Broker } from '../adapters/broker/broker.js';
import { loadInstrumentMaster } from '../adapters/broker/helpers/instrument-master.js';
import { fetchCandleRange, toCandleEvents } from '../adapters/broker/helpers/candles.js';
import { bucketEnd, type Interval } from '../core/candles.js';
import type { CandleEvent } from '../core/events.js';
import { circuitQuotes } from '../adapters/broker/helpers/quotes.js';
import type { BrokerSession, BrokerStats, MarketFeed } from './parts.js';

/**
 * Scrip codes per circuit-band call. Each answer is parsed in one go on the event loop, and ticks
 * wait behind it: a full quote is ~0.9 kB, so 1,000 a call (the spec's cap) held the loop ~20 ms
 * per answer; 200 keep it to a few. 3,000 instruments then take 15 calls, 3 s of the 5/s quotes
 * budget every 15 minutes.
 */
const CIRCUIT_BATCH = 200;

export interface BrokerSessionOptions {
  readonly broker: Broker;
  readonly clock: Clock;
  readonly log: Logger;
  /** Instrument master sources to load. Default equity, index and fno. */
  readonly sources?: readonly MasterSource[];
  /** Disk cache of the master (one download per day); none for paper trading. */
  readonly cacheDir?: string;
  /** Venue name in events (`broker`, `paper`). */
  readonly venueName?: string;
  /** Called when the session is closed (e.g. to stop an embedded simulator after the sockets). */
  readonly onClose?: () => Promise<void>;
}

export function brokerSession(o: BrokerSessionOptions): BrokerSession {
  const { broker, clock, log } = o;
  const venue = new BrokerVenue(broker, { name: o.venueName ?? 'broker' });
  const lifecycle: Observable<LifecycleEvent> = broker.marketData().connections$.pipe(
    map((c) => ({ type: 'lifecycle', ts: c.ts, phase: c.connected ? 'connected' : 'disconnected', source: `ws:prices#${c.shard}`, detail: c.detail, cause: c.cause }) as const),
  );

  const market = broker.marketData();
  const feed: MarketFeed = {
    events$: merge(market.ticks$ as Observable<TickEvent>, lifecycle),
    get arrivedAt() {
      return market.arrivedAt;
    },
    yieldToWrites: () => market.yieldToWrites(),
    async subscribe(instruments) {
      if (instruments.length === 0) return;
      broker.marketData().subscribe(instruments, 'full');
    },
    async close() {
      // The streams complete when the broker closes (below).
    },
  };

  let closed = false;
  const sources = o.sources ?? ['equity', 'index', 'fno'];
  return {
    venue,
    feed,
    sources,
    options: {
      expiries: (underlying) => broker.client.expiries(underlying),
      optionChain: (q) => broker.client.optionChain(q),
    },
    async circuitBands(codes) {
      const r = await circuitQuotes(broker.client, codes, CIRCUIT_BATCH);
      if (r.invalid.length > 0) log.warn({ invalid: r.invalid.slice(0, 10), count: r.invalid.length }, 'circuit bands: the broker refused some scrip codes');
      return r.quotes;
    },
    async login() {
      await broker.tokens.token();
    },
    async instruments(only?: readonly MasterSource[]): Promise<readonly Instrument[]> {
      const out: Instrument[] = [];
      for (const source of only ?? sources) {
        const m = await loadInstrumentMaster(broker.client, clock, source, o.cacheDir);
        if (m.errors.length > 0) log.warn({ source, bad: m.errors.length, first: m.errors[0] }, 'instrument master: some rows could not be read and were left out');
        out.push(...m.instruments);
      }
      return out;
    },
    async history(instrument: string, interval: Interval, from: number, to: number): Promise<readonly CandleEvent[]> {
      const r = await fetchCandleRange(broker.client, clock, { code: instrument, interval, from, to, ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}) });
      return toCandleEvents(instrument, interval, r.candles, (start) => bucketEnd(start, interval));
    },
    stats(): BrokerStats {
      const h = broker.http.stats;
      const shards = broker.marketData().stats().shards;
      const drops = shards.reduce((n, s) => n + s.drops + s.stalls, 0);
      return {
        requests: h.requests,
        rateLimited: h.rateLimited,
        serverErrors: (h as { serverErrors?: number }).serverErrors ?? 0,
        tokenRenewals: h.tokenRenewals,
        reconnects: drops,
        streams: broker.streams(),
        ...(broker.tokens.blockedReason ? { tokenBlocked: broker.tokens.blockedReason } : {}),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await feed.close();
      await venue.close();
      await broker.close();
      await o.onClose?.();
    },
  };
}
