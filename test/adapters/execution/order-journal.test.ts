/**
 * The execution journal (`tags`, `mods`) over the real stores: entries of finished orders go at the
 * daily reconcile once the venue's day book no longer lists them; today's, working, unsettled and
 * lost-answer orders keep theirs; a restart after pruning reconciles the live orders from the
 * journal and adopts nothing twice. The order state machine forgets finished orders of earlier days
 * at the same moment.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingVenue } from '../../../src/adapters/execution/recording-venue.js';
import type { VenueOrderRequest, VenueResult, WriteOutcome } from '../../../src/adapters/execution/venue.js';
import { RedisStore } from '../../../src/adapters/redis/store.js';
import { Engine } from '../../../src/engine/engine.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Event } from '../../../src/core/events.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { MemoryStore, type Store } from '../../../src/core/store.js';
import { istDateTime } from '../../../src/core/time.js';
import type { StrategyContext } from '../../../src/strategies/strategy.js';
import { TEST_REDIS_URL, redisAvailable } from '../../support/redis.js';
import { RELIANCE, TCS, bare } from './harness.js';

const redisUp = await redisAvailable();
const DAY1 = istDateTime('2025-01-06', '09:30');
const DAY2 = istDateTime('2025-01-07', '09:10');
const DAY3 = istDateTime('2025-01-08', '15:35');

/** A venue whose placements can be left unanswered (a write on the wire when the day ends). */
class StallingVenue extends RecordingVenue {
  stall = false;
  readonly stalled: VenueOrderRequest[] = [];
  override place(req: VenueOrderRequest): VenueResult<WriteOutcome> {
    if (!this.stall) return super.place(req);
    this.stalled.push(req);
    return new Promise<WriteOutcome>(() => undefined);
  }
}

interface Run {
  readonly engine: Engine;
  readonly ctx: StrategyContext;
  readonly events: Event[];
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

async function start(store: Store, venue: RecordingVenue, clock: VirtualClock, o: { execution?: { reconcileDelaysMs: number[] }; stoppable?: boolean } = {}): Promise<Run> {
  const h: { ctx?: StrategyContext } = {};
  const engine = await Engine.create({
    clock, venue, store, instruments: new InstrumentTable([RELIANCE, TCS]),
    strategies: [{ id: 's1', strategy: bare({ onStart: (ctx) => void (h.ctx = ctx) }) }],
    ...(o.execution ? { execution: o.execution } : {}),
  });
  const events: Event[] = [];
  engine.bus.onAny((e) => events.push(e));
  await engine.start();
  // An engine with a write that is never answered cannot stop cleanly (stop waits for it).
  if (o.stoppable !== false) cleanup.push(() => engine.stop());
  // Prices for MARKET orders (risk values them at the last price).
  for (const instrument of ['NSE_2885', 'NSE_11536']) engine.publishTick({ type: 'tick', ts: clock.now(), instrument, ltp: instrument === 'NSE_2885' ? 100_00 : 3000_00 });
  return { engine, ctx: h.ctx!, events };
}

/** Waits (real time: a Redis round trip) for a condition. */
async function eventually(cond: () => boolean, what: string): Promise<void> {
  for (const t0 = performance.now(); !cond(); ) {
    if (performance.now() - t0 > 5_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function settle(clock: VirtualClock, engine: Engine): Promise<void> {
  await engine.execution.idle();
  await clock.advanceByAsync(0);
}

async function journal(store: Store): Promise<{ tags: string[]; mods: string[] }> {
  return {
    tags: (await store.entries('tags')).map(([k]) => k).sort(),
    mods: (await store.entries('mods')).map(([k]) => k).sort(),
  };
}

const stores: Array<{ name: string; up: boolean; make: () => Promise<Store> }> = [
  { name: 'MemoryStore', up: true, make: async () => new MemoryStore() },
  {
    name: 'RedisStore',
    up: redisUp,
    make: async () => {
      const s = new RedisStore({ url: TEST_REDIS_URL, prefix: `test:journal:${randomUUID()}:` });
      await s.ready(5_000);
      cleanup.unshift(async () => {
        await s.clear();
        await s.close();
      });
      return s;
    },
  },
];

describe.each(stores)('execution journal pruning over $name', ({ up, make }) => {
  it.skipIf(!up)('prunes finished orders at the daily reconcile once the day book no longer lists them; keeps today\'s and working ones', async () => {
    const store = await make();
    const clock = new VirtualClock(DAY1);
    const venue = new RecordingVenue({ clock, async: true, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) });
    const { engine, ctx } = await start(store, venue, clock);
    const filled = [ctx.buy('NSE_2885', 2), ctx.sell('NSE_2885', 2)];
    const working = ctx.buy('NSE_2885', 1, { limitPrice: 95_00, product: 'CNC' });
    const cancelled = ctx.buy('NSE_11536', 1, { limitPrice: 3000_00 });
    await settle(clock, engine);
    ctx.submit({ kind: 'modify', target: working, limitPrice: 95_50 });
    ctx.submit({ kind: 'modify', target: cancelled, limitPrice: 3001_00 });
    await settle(clock, engine);
    ctx.cancel(cancelled);
    await settle(clock, engine);
    expect(engine.orders.get(cancelled)?.status).toBe('CANCELLED');
    const all = [...filled, working, cancelled].sort();
    expect(await journal(store)).toEqual({ tags: all, mods: [cancelled, working].sort() });

    // The session end of the same day: the book still lists every order, so nothing goes.
    clock.advanceTo(istDateTime('2025-01-06', '15:35'));
    expect(await engine.execution.reconcileDay()).toEqual({ journalPruned: 0, journalKept: 4, ordersForgotten: 0 });
    expect((await journal(store)).tags).toEqual(all);

    // Next day: the broker's day book has dropped the finished orders; the working one stays.
    await clock.advanceToAsync(DAY2);
    venue.newDay();
    expect(await engine.execution.reconcileDay()).toEqual({ journalPruned: 3, journalKept: 1, ordersForgotten: 3 });
    expect(await journal(store)).toEqual({ tags: [working], mods: [working] });
    // Finished orders of the earlier day are gone from memory too; the working one is untouched.
    for (const t of [...filled, cancelled]) expect(engine.orders.getExact(t)).toBeUndefined();
    expect(ctx.orders.open('NSE_2885').map((o) => o.tag)).toEqual([working]);
    expect(engine.orders.size()).toBe(1);
  });

  it.skipIf(!up)('while the book still lists an earlier day\'s orders (no session since), keeps their entries and never adopts them again', async () => {
    const store = await make();
    const clock = new VirtualClock(DAY1);
    const venue = new RecordingVenue({ clock, async: true, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) });
    const { engine, ctx, events } = await start(store, venue, clock);
    const filled = [ctx.buy('NSE_2885', 1), ctx.sell('NSE_2885', 1)].sort();
    await settle(clock, engine);
    // Friday's orders on Saturday and Sunday: still in the book, gone from memory.
    for (const day of [DAY2, DAY3]) {
      await clock.advanceToAsync(day);
      expect(await engine.execution.reconcileDay()).toMatchObject({ journalPruned: 0, journalKept: 2 });
    }
    expect(engine.orders.size()).toBe(0);
    // A reconnect reads the same book again: the forgotten orders are recognised, not adopted.
    await engine.execution.resync('reconnected');
    expect(engine.orders.size()).toBe(0);
    expect(events.filter((e) => e.type === 'alert' && e.code === 'ORDER_ADOPTED')).toEqual([]);
    expect((await journal(store)).tags).toEqual(filled);
    // The next session rolls the book: now they go.
    await clock.advanceToAsync(DAY3 + 86_400_000);
    venue.newDay();
    expect(await engine.execution.reconcileDay()).toMatchObject({ journalPruned: 2, journalKept: 0 });
  });

  it.skipIf(!up)('keeps the entries of a write on the wire and of a lost answer under lookup, and prunes them once settled', async () => {
    const store = await make();
    const clock = new VirtualClock(DAY1);
    const venue = new StallingVenue({ clock, async: true, answer: (w) => (w.kind === 'place' && w.req.qty === 7 ? { status: 'unknown', reason: 'answer lost' } : undefined) });
    // One lookup, two days after the lost answer: still pending at the next day's reconcile.
    const { engine, ctx } = await start(store, venue, clock, { execution: { reconcileDelaysMs: [2 * 86_400_000] }, stoppable: false });
    const lost = ctx.buy('NSE_2885', 7, { limitPrice: 99_00 });
    // (not idle(): the pending lookup counts as outstanding work) The journal write comes first.
    await eventually(() => venue.writesOf('place').length === 1, 'the first placement sent');
    venue.stall = true;
    const onWire = ctx.buy('NSE_2885', 3, { limitPrice: 98_00 });
    await eventually(() => venue.stalled.length === 1, 'the second placement on the wire');
    expect(venue.stalled.map((r) => r.tag)).toEqual([onWire]);
    expect((await journal(store)).tags).toEqual([lost, onWire].sort());

    await clock.advanceToAsync(DAY2);
    venue.newDay();
    expect(await engine.execution.reconcileDay()).toMatchObject({ journalPruned: 0, journalKept: 2 });
    expect((await journal(store)).tags).toEqual([lost, onWire].sort());

    // The lookup finds nothing: the place is declared not done. The next daily reconcile, whose book
    // read comes after that, lets the entry go; the write still on the wire keeps its entry.
    await clock.advanceToAsync(DAY3);
    expect(engine.orders.get(lost)).toMatchObject({ status: 'REJECTED' });
    expect(await engine.execution.reconcileDay()).toMatchObject({ journalPruned: 1, journalKept: 1 });
    expect((await journal(store)).tags).toEqual([onWire]);
  });

  it.skipIf(!up)('after pruning, a restart reconciles the live orders from the journal and adopts nothing twice', async () => {
    const store = await make();
    const clock = new VirtualClock(DAY1);
    const venue = new RecordingVenue({ clock, async: true, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) });
    const first = await start(store, venue, clock);
    const done = [first.ctx.buy('NSE_2885', 1), first.ctx.sell('NSE_2885', 1)];
    const live = first.ctx.buy('NSE_2885', 5, { limitPrice: 90_00, product: 'CNC' });
    const smart = first.ctx.submit({ kind: 'smart', instrument: 'NSE_11536', side: 'BUY', qty: 2, entryType: 'LIMIT', limitPrice: 3000_00, stopLoss: { triggerPrice: 2950_00 }, target: { triggerPrice: 3100_00 }, validity: 'DAY', product: 'CNC' });
    await settle(clock, first.engine);
    await clock.advanceToAsync(DAY2);
    venue.newDay();
    expect(await first.engine.execution.reconcileDay()).toMatchObject({ journalPruned: 2, journalKept: 2 });
    await first.engine.stop();
    const placed = venue.writesOf('place').length + venue.writesOf('placeSmart').length;

    for (let restart = 1; restart <= 2; restart++) {
      const next = await start(store, venue, clock);
      const openTags = next.engine.orders.openOrders().map((o) => o.tag).sort();
      expect(openTags).toEqual([live, smart, `${smart}.sl`, `${smart}.tg`].sort());
      for (const o of next.engine.orders.openOrders()) expect(o.strategyId).toBe('s1');
      expect(next.engine.orders.size()).toBe(4);
      for (const t of done) expect(next.engine.orders.get(t)).toBeUndefined();
      expect(next.events.filter((e) => e.type === 'alert' && (e.code === 'ORDER_ADOPTED' || e.code === 'FOREIGN_ORDERS'))).toEqual([]);
      expect(await next.engine.execution.reconcileDay({ readBook: false })).toMatchObject({ journalPruned: 0, journalKept: 2 });
      // The adopted order is managed as before: a cancel reaches the venue under its id.
      if (restart === 2) {
        next.ctx.cancel(live);
        await settle(clock, next.engine);
        expect(venue.writesOf('cancel').map((w) => w.req.tag)).toEqual([live]);
      }
      await next.engine.stop();
    }
    expect(venue.writesOf('place').length + venue.writesOf('placeSmart').length).toBe(placed);
  });
});

describe('in-process venues', () => {
  it('journal nothing and still forget finished orders of earlier days at the daily reconcile', async () => {
    const store = new MemoryStore();
    const clock = new VirtualClock(DAY1);
    const venue = new RecordingVenue({ clock, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) });
    const { engine, ctx } = await start(store, venue, clock);
    const t = ctx.buy('NSE_2885', 1);
    expect(await journal(store)).toEqual({ tags: [], mods: [] });
    clock.advanceTo(DAY2);
    expect(await engine.execution.reconcileDay({ readBook: false })).toEqual({ journalPruned: 0, journalKept: 0, ordersForgotten: 1 });
    expect(engine.orders.getExact(t)).toBeUndefined();
  });
});
