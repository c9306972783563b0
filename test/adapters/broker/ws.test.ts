/**
 * The WebSocket client against the simulator: ticks after a subscribe, a drop and a stall each
 * followed by a reconnect and a resubscribe, no order update lost while the stream was down, and
 * subscriptions sharded beyond 3000 instruments.
 */
import { filter, firstValueFrom, take, timeout, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { subscriptionFrames, type ShardConnection } from '../../../src/adapters/broker/ws/market-data.js';
import { loadInstrumentMaster } from '../../../src/adapters/broker/helpers/instrument-master.js';
import type { VenueUpdate } from '../../../src/adapters/execution/venue.js';

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('subscription frames', () => {
  it('sends one frame per segment, at most 1000 instruments each', () => {
    const entries: Array<[string, 'ltp']> = [
      ...Array.from({ length: 2500 }, (_, i): [string, 'ltp'] => [`NSE_${i + 1}`, 'ltp']),
      ...Array.from({ length: 10 }, (_, i): [string, 'ltp'] => [`NFO_${i + 1}`, 'ltp']),
    ];
    const frames = subscriptionFrames('subscribe', entries, 1000);
    expect(frames.map((f) => [f.instruments[0]!.split(':')[0], f.instruments.length])).toEqual([
      ['NSE', 1000],
      ['NSE', 1000],
      ['NSE', 500],
      ['NFO', 10],
    ]);
    for (const f of frames) expect(new Set(f.instruments.map((k) => k.split(':')[0])).size).toBe(1);
  });
});

describe('streams against the simulator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { ws: { stallMs: 1500, pingIntervalMs: 500, reconnectBaseMs: 400, reconnectMaxMs: 2000, positionPollMs: 60_000 } } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('delivers ticks after a subscribe, and again after a drop (reconnect + resubscribe)', async () => {
    const md = h.broker.marketData();
    md.subscribe(['NSE_2885', 'NSE_11536'], 'full');
    const first = await firstValueFrom(md.ticks$.pipe(filter((t) => t.instrument === 'NSE_2885'), timeout(10_000)));
    expect(first.ltp).toBeGreaterThan(0);
    expect(first.bid).toBeDefined();
    await h.control('POST', '/sim/faults', { ws_drop: true });
    await until(() => md.stats().shards[0]!.connects >= 2);
    const after = await firstValueFrom(md.ticks$.pipe(filter((t) => t.instrument === 'NSE_11536'), timeout(10_000)));
    expect(after.ltp).toBeGreaterThan(0);
    expect(md.stats().shards[0]!.drops).toBeGreaterThanOrEqual(1);
  });

  it('detects a stalled stream, forces a reconnect and resumes ticks', async () => {
    const md = h.broker.marketData();
    const stallsBefore = md.stats().shards[0]!.stalls;
    await h.control('POST', '/sim/faults', { ws_stall: true });
    await until(() => md.stats().shards[0]!.stalls > stallsBefore);
    await h.control('POST', '/sim/faults', { ws_stall: false });
    const t = await firstValueFrom(md.ticks$.pipe(timeout(10_000)));
    expect(t.ltp).toBeGreaterThan(0);
  });

  it('decodes double-encoded, batched and partial frames from the live stream', async () => {
    const md = h.broker.marketData();
    await h.control('POST', '/sim/faults', { ws_double_encode: true, ws_batch: true, ws_partial: true });
    try {
      const ticks = await firstValueFrom(md.ticks$.pipe(filter((t) => t.instrument === 'NSE_2885'), take(3), toArray(), timeout(10_000)));
      for (const t of ticks) {
        expect(t.ltp).toBeGreaterThan(0);
        expect(t.open).toBeGreaterThan(0); // carried over from the full state when the frame is partial
      }
      expect(md.stats().decodeErrors).toBe(0);
    } finally {
      await h.control('POST', '/sim/faults', { ws_double_encode: false, ws_batch: false, ws_partial: false });
    }
  });

  it('loses no order update while the order stream is down: the book is read again after the reconnect', async () => {
    const venue = new BrokerVenue(h.broker);
    const updates: VenueUpdate[] = [];
    const sub = venue.updates.subscribe((u) => updates.push(u));
    try {
      await until(() => updates.some((u) => u.kind === 'connection' && u.connected));
      const ltp = (await h.broker.client.quotesLtp(['NSE_2885']))['NSE_2885']!.ltp;
      const placed = await venue.place({ tag: 'ws-test:1', instrument: 'NSE_2885', side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: Math.floor((ltp * 0.95) / 10) * 10, validity: 'DAY', product: 'CNC', isAmo: false });
      if (placed.status !== 'accepted') throw new Error(`place: ${JSON.stringify(placed)}`);
      await until(() => updates.some((u) => u.kind === 'order' && u.order.orderId === placed.orderId));
      // Drop every socket, then cancel while the client is still reconnecting: the push is missed.
      await h.control('POST', '/sim/faults', { ws_drop: true });
      const cancel = await venue.cancel({ tag: 'ws-test:1', orderId: placed.orderId, instrument: 'NSE_2885' });
      expect(cancel.status).toBe('accepted');
      await until(() => updates.some((u) => u.kind === 'order' && u.order.orderId === placed.orderId && u.order.status === 'CANCELLED'));
      const down = updates.findIndex((u) => u.kind === 'connection' && !u.connected);
      const cancelled = updates.findIndex((u) => u.kind === 'order' && u.order.orderId === placed.orderId && u.order.status === 'CANCELLED');
      expect(down).toBeGreaterThanOrEqual(0);
      expect(cancelled).toBeGreaterThan(down);
      const cancelledUpdate = updates[cancelled];
      expect(cancelledUpdate?.kind === 'order' && cancelledUpdate.order.tag).toBe('ws-test:1');
    } finally {
      sub.unsubscribe();
    }
  });
  it('reports a stall that outlasts reconnects as one incident on both streams, ended only by frames flowing again', async () => {
    const md = h.broker.marketData();
    md.subscribe(['NSE_2885'], 'full');
    const venue = new BrokerVenue(h.broker);
    const prices: ShardConnection[] = [];
    const orders: VenueUpdate[] = [];
    const subs = [md.connections$.subscribe((c) => prices.push(c)), venue.updates.subscribe((u) => u.kind === 'connection' && orders.push(u))];
    try {
      // The order stream is one per broker (an earlier test's venue may have opened it).
      await until(() => h.broker.streams().some((st) => st.name === 'ws:orders' && st.connected));
      const stallsBefore = md.stats().shards[0]!.stalls;
      await h.control('POST', '/sim/faults', { ws_stall: true });
      // Stalled, reconnected, stalled again: the order stream answers no pong either.
      await until(() => md.stats().shards[0]!.stalls >= stallsBefore + 2, 20_000);
      await until(() => orders.filter((u) => u.kind === 'connection' && u.cause === 'stalled').length >= 1, 20_000);
      expect(md.stats().shards[0]!.stalled).toBe(true);
      expect(prices.filter((c) => c.cause === 'stalled').length).toBeGreaterThanOrEqual(2);
      expect(prices.some((c) => c.cause === 'reconnected')).toBe(true);
      expect(prices.some((c) => c.cause === 'flowing')).toBe(false);
      await h.control('POST', '/sim/faults', { ws_stall: false });
      await until(() => prices.some((c) => c.cause === 'flowing') && orders.some((u) => u.kind === 'connection' && u.cause === 'flowing'), 20_000);
      expect(prices.filter((c) => c.cause === 'flowing')).toHaveLength(1);
      expect(md.stats().shards[0]!.stalled).toBe(false);
      expect(md.stats().shards[0]!.lastFrameAt).toBeGreaterThan(0);
      const streams = h.broker.streams();
      expect(streams.map((st) => st.name)).toEqual(['ws:prices#0', 'ws:orders']);
    } finally {
      for (const sub of subs) sub.unsubscribe();
    }
  });
});

describe('sharding', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sim: { venue: { nseEquities: 2400, bseEquities: 700 } } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('spreads more than 3000 instruments over connections of at most 3000 and gets ticks from each', async () => {
    const nse = await loadInstrumentMaster(h.broker.client, h.sim.clock, 'equity');
    const codes = nse.instruments.filter((i) => i.segment === 'EQUITY').map((i) => i.id);
    expect(codes.length).toBeGreaterThan(3000);
    const md = h.broker.marketData();
    md.subscribe(codes, 'ltp');
    expect(md.connections).toBe(2);
    const stats = md.stats().shards.map((s) => s.instruments);
    expect(stats[0]).toBe(3000);
    expect(stats[1]).toBe(codes.length - 3000);
    const onSecond = new Set(codes.slice(3000));
    const seen = await firstValueFrom(md.ticks$.pipe(filter((t) => onSecond.has(t.instrument)), timeout(15_000)));
    expect(seen.ltp).toBeGreaterThan(0);
    const onFirst = new Set(codes.slice(0, 3000));
    expect((await firstValueFrom(md.ticks$.pipe(filter((t) => onFirst.has(t.instrument)), timeout(15_000)))).ltp).toBeGreaterThan(0);
    expect(() => md.subscribe(Array.from({ length: 3000 }, (_, i) => `NFO_${900000 + i}`))).toThrow(/exceed 6000/);
  });
});

describe('bursts and writes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('decodes the rest of a burst only after a write its tick started has left, and loses no frame of it', async () => {
    const nse = await loadInstrumentMaster(h.broker.client, h.sim.clock, 'equity');
    const codes = nse.instruments.filter((i) => i.segment === 'EQUITY').map((i) => i.id);
    expect(codes.length).toBeGreaterThan(20);
    const md = h.broker.marketData();
    // What the handler saw, in order: each tick, and the write the first one started.
    const seen: string[] = [];
    const arrivals: number[] = [];
    const sub = md.ticks$.subscribe((t) => {
      seen.push(t.instrument);
      arrivals.push(md.arrivedAt);
      if (seen.length === 1) {
        md.yieldToWrites();
        // An order's HTTP write starts from promise callbacks, as the execution engine's does.
        void Promise.resolve().then(() => seen.push('write'));
      }
    });
    try {
      // A subscribe is answered with every instrument's current state at once: one burst.
      md.subscribe(codes, 'full');
      await until(() => new Set(seen).size >= codes.length + 1);
      expect(seen[1]).toBe('write');
      expect(new Set(seen.filter((s) => s !== 'write'))).toEqual(new Set(codes));
      // The parked frames keep the time their read arrived.
      expect(arrivals.every((a) => a > 0 && a <= performance.now())).toBe(true);
      expect(md.stats().decodeErrors).toBe(0);
    } finally {
      sub.unsubscribe();
    }
  });
});
