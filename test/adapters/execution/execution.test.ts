import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../../../src/core/intents.js';
import type { StrategyContext } from '../../../src/strategies/strategy.js';
import { bare, harness } from './harness.js';
import { manualTag } from '../../../src/adapters/execution/tags.js';

/** A strategy that exposes its context so a test can act through it. */
function handle() {
  const h: { ctx?: StrategyContext } = {};
  return { h, strategy: bare({ onStart: (ctx) => void (h.ctx = ctx) }) };
}

describe('execution through the engine', () => {
  it('tags every order with a client id in remarks, unique across restarts of the same store', async () => {
    const a = handle();
    const h1 = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    const t1 = a.h.ctx!.buy('NSE_2885', 1, { limitPrice: 100_00 });
    const b = handle();
    const h2 = await harness({ strategies: [{ id: 's1', strategy: b.strategy }], store: h1.store });
    const t2 = b.h.ctx!.buy('NSE_2885', 1, { limitPrice: 100_00 });
    expect(h1.venue.writesOf('place')[0]!.req.tag).toBe(t1);
    expect(h2.venue.writesOf('place')[0]!.req.tag).toBe(t2);
    expect(t1).toMatch(/^tr1-/);
    expect(t2).toMatch(/^tr2-/);
  });

  it('moves its tags past the runs the order book holds when the store forgot its run counter (a restarted memory store)', async () => {
    const a = handle();
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      before: (venue, clock) => {
        for (const tag of ['tr1-1', 'tr3-2']) {
          venue.seed({ orderId: `OLD-${tag}`, tag, status: 'CANCELLED', instrument: 'NSE_2885', side: 'BUY', qty: 1, filledQty: 0, orderType: 'MARKET', product: 'CNC', validity: 'DAY', ts: clock.now() });
        }
      },
    });
    const tag = a.h.ctx!.buy('NSE_2885', 1, { limitPrice: 100_00 });
    expect(tag).toBe('tr4-1');
    expect(h.venue.writesOf('place').map((w) => w.req.tag)).toEqual(['tr4-1']);
    expect(await h.store.get('engine', 'run')).toBe(4);
    expect(h.of('denied')).toEqual([]);
  });

  it('denies, never drops, an intent whose id another order already holds', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    const tag = a.h.ctx!.buy('NSE_2885', 1, { limitPrice: 100_00 });
    const again: PlaceIntent = { kind: 'place', id: tag, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 2, orderType: 'LIMIT', limitPrice: 100_00, validity: 'DAY', product: 'CNC' };
    h.engine.publish({ type: 'intent', ts: h.clock.now(), intent: again });
    expect(h.venue.writesOf('place')).toHaveLength(1);
    expect(h.of('denied')).toEqual([expect.objectContaining({ code: 'EXECUTION_ERROR', intent: again })]);
    expect(h.of('denied')[0]!.reason).toContain(`order id ${tag} is already in use`);
  });

  it('tick -> strategy -> risk -> order -> fill -> position, synchronously on an in-process venue', async () => {
    const seen: string[] = [];
    const h = await harness({
      venue: { autoFill: (r) => (r.orderType === 'MARKET' ? 142_650 : undefined) },
      strategies: [{
        id: 's1',
        strategy: bare({
          onTick: (t, ctx) => {
            if (ctx.portfolio.netQty('NSE_2885') === 0 && ctx.orders.open().length === 0) ctx.buy('NSE_2885', 10);
          },
          onOrder: (o) => seen.push(`order:${o.status}`),
          onFill: (f) => seen.push(`fill:${f.qty}@${f.price}`),
          onPosition: (p) => seen.push(`position:${p.netQty}`),
        }),
      }],
    });
    h.tick(142_650);
    expect(seen).toEqual(['order:PENDING_NEW', 'fill:10@142650', 'order:FILLED', 'position:10']);
    expect(h.engine.portfolio.netQty('NSE_2885', 's1')).toBe(10);
    h.tick(142_700);
    expect(h.venue.writesOf('place')).toHaveLength(1);
  });

  it('a denied intent never reaches the venue and arrives as a denied event', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], risk: { maxOrderValue: 1000_00 } });
    a.h.ctx!.buy('NSE_2885', 100, { limitPrice: 100_00 });
    expect(h.venue.writes).toHaveLength(0);
    expect(h.of('denied').map((d) => d.code)).toEqual(['MAX_ORDER_VALUE']);
  });

  it('a venue rejection ends the order and is announced as VENUE_REJECTED', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { answer: () => ({ status: 'rejected', reason: 'Insufficient margin', errorCode: 'OrderException' }) } });
    const tag = a.h.ctx!.buy('NSE_2885', 1, { limitPrice: 100_00 });
    expect(h.engine.orders.get(tag)).toMatchObject({ status: 'REJECTED', reason: 'Insufficient margin' });
    expect(h.of('denied')[0]).toMatchObject({ code: 'VENUE_REJECTED', reason: 'Insufficient margin' });
  });

  it('a lost answer is reconciled by tag from the order book, never retried: one order, not two', async () => {
    const a = handle();
    let placed: PlaceIntent | undefined;
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      venue: {
        answer: (w) => {
          if (w.kind !== 'place') return undefined;
          placed = { kind: 'place', id: w.req.tag, strategyId: 's1', ...w.req };
          return { status: 'unknown', reason: 'socket hang up' };
        },
      },
    });
    const tag = a.h.ctx!.buy('NSE_2885', 5, { limitPrice: 100_00 });
    expect(placed?.id).toBe(tag);
    // The broker did place it: it is in the order book with our remarks.
    h.venue.seed({ orderId: 'DRV-77', tag, instrument: 'NSE_2885', side: 'BUY', qty: 5, orderType: 'LIMIT', limitPrice: 100_00, status: 'OPEN', filledQty: 0, ts: h.clock.now() });
    await h.clock.advanceByAsync(250);
    expect(h.engine.orders.get(tag)).toMatchObject({ status: 'OPEN', orderId: 'DRV-77' });
    expect(h.venue.writesOf('place')).toHaveLength(1);
    expect(h.of('lifecycle').some((e) => e.phase === 'reconciled' && e.detail?.includes(tag))).toBe(true);
  });

  it('a lost answer for an order the book proves absent is sent once more; when that answer is lost too, REJECTED after its looks', async () => {
    const a = handle();
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      execution: { reconcileDelaysMs: [100, 200] },
      venue: { answer: (w) => (w.kind === 'place' ? { status: 'unknown', reason: 'timeout' } : undefined) },
    });
    const tag = a.h.ctx!.buy('NSE_2885', 5, { limitPrice: 100_00 });
    await h.clock.advanceByAsync(100);
    expect(h.engine.orders.get(tag)?.status).toBe('PENDING_NEW');
    expect(h.venue.writesOf('place')).toHaveLength(1);
    await h.clock.advanceByAsync(200);
    // Absent at both looks: the one resend, same tag.
    expect(h.venue.writesOf('place').map((w) => w.req.tag)).toEqual([tag, tag]);
    expect(h.engine.orders.get(tag)?.status).toBe('PENDING_NEW');
    await h.clock.advanceByAsync(300);
    expect(h.engine.orders.get(tag)).toMatchObject({ status: 'REJECTED' });
    expect(h.engine.orders.get(tag)?.reason).toMatch(/not found in the order book after 2 lookups following a lost answer \(the one resend was not found either\)/);
    expect(h.venue.writesOf('place')).toHaveLength(2);
    expect(h.of('alert').map((e) => e.code)).toContain('ORDER_NOT_FOUND');
    expect(h.of('lost-answer').map((e) => [e.verdict, e.round])).toEqual([
      ['resent', 1],
      ['not-done', 2],
    ]);
  });

  it('a lost answer proved absent after the resend deadline is not sent again: REJECTED', async () => {
    const a = handle();
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      execution: { reconcileDelaysMs: [100, 200], resendWithinMs: 250 },
      venue: { answer: (w) => (w.kind === 'place' ? { status: 'unknown', reason: 'timeout' } : undefined) },
    });
    const tag = a.h.ctx!.buy('NSE_2885', 5, { limitPrice: 100_00 });
    await h.clock.advanceByAsync(300);
    expect(h.venue.writesOf('place')).toHaveLength(1);
    expect(h.engine.orders.get(tag)?.reason).toMatch(/past the resend deadline/);
  });

  it('counts modifications persistently and switches to cancel-and-replace at the 24th instead of failing', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], risk: { orderRate: { max: 1000, windowMs: 1000 } } });
    const tag = a.h.ctx!.buy('NSE_2885', 10, { limitPrice: 100_00 });
    for (let k = 1; k <= 24; k++) a.h.ctx!.submit({ kind: 'modify', target: tag, limitPrice: 100_00 + k * 5 });
    expect(h.venue.writesOf('modify')).toHaveLength(24);
    expect(await h.store.get('mods', tag)).toBe(24);
    // The 25th change: cancel, then (once cancelled) a replacement for the remaining quantity.
    a.h.ctx!.submit({ kind: 'modify', target: tag, limitPrice: 101_50 });
    expect(h.venue.writesOf('modify')).toHaveLength(24);
    expect(h.venue.writesOf('cancel')).toHaveLength(1);
    const places = h.venue.writesOf('place');
    expect(places).toHaveLength(2);
    expect(places[1]!.req).toMatchObject({ qty: 10, limitPrice: 101_50, side: 'BUY' });
    const replacement = h.engine.orders.get(tag)!;
    expect(replacement.tag).not.toBe(tag);
    expect(replacement.replaces).toBe(tag);
    expect(h.engine.orders.getExact(tag)?.status).toBe('CANCELLED');
    // The strategy keeps addressing it by the old tag.
    a.h.ctx!.submit({ kind: 'modify', target: tag, limitPrice: 101_00 });
    expect(h.venue.writesOf('modify').at(-1)!.req.orderId).toBe(replacement.orderId);
  });

  it('after a reconnect it re-reads the order book and trades, recovering what the stream missed', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    const tag = a.h.ctx!.buy('NSE_2885', 10, { limitPrice: 100_00 });
    const id = h.engine.orders.get(tag)!.orderId!;
    // Filled while the stream was down: the venue's book and trade list know, no update was seen.
    const sub = h.engine.venue.updates.subscribe(); // keep the subject warm
    const orig = h.venue.emit.bind(h.venue);
    h.venue.emit = () => undefined;
    h.venue.fill(id, 10, 99_95);
    h.venue.emit = orig;
    expect(h.engine.orders.get(tag)?.status).toBe('OPEN');
    h.venue.emit({ kind: 'connection', connected: true, ts: h.clock.now() });
    await h.clock.advanceByAsync(0);
    expect(h.engine.orders.get(tag)).toMatchObject({ status: 'FILLED', filledQty: 10 });
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(10);
    sub.unsubscribe();
  });

  it('trips the kill switch at the daily loss limit: cancels, flattens, halts', async () => {
    const a = handle();
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      risk: { maxDailyLoss: 500_00 },
      venue: { autoFill: (r) => (r.orderType === 'MARKET' ? (r.side === 'BUY' ? 100_00 : 94_00) : undefined) },
    });
    h.tick(100_00);
    a.h.ctx!.buy('NSE_2885', 100);
    a.h.ctx!.buy('NSE_2885', 1, { limitPrice: 90_00 }); // a working order to cancel
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(100);
    h.tick(96_00); // -400
    expect(h.engine.tradingState()).toBe('active');
    h.tick(95_00); // -500: trip
    expect(h.engine.tradingState()).toBe('halted');
    expect(h.venue.writesOf('cancel')).toHaveLength(1);
    expect(h.venue.writesOf('place').at(-1)!.req).toMatchObject({ side: 'SELL', qty: 100, orderType: 'MARKET' });
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
    // Closed in the strategy's own name: its book is flat too.
    expect(h.engine.portfolio.netQty('NSE_2885', 's1')).toBe(0);
    expect(h.of('alert').map((x) => x.code)).toContain('KILL_SWITCH');
    a.h.ctx!.buy('NSE_2885', 1);
    expect(h.of('denied').at(-1)?.code).toBe('TRADING_STATE');
  });

  it('exit cancels the strategy\'s open orders in the instrument and closes its position at market', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) } });
    h.tick(100_00);
    a.h.ctx!.buy('NSE_2885', 7);
    a.h.ctx!.sell('NSE_2885', 7, { limitPrice: 110_00 });
    a.h.ctx!.exit('NSE_2885');
    expect(h.venue.writesOf('cancel')).toHaveLength(1);
    expect(h.venue.writesOf('place').at(-1)!.req).toMatchObject({ side: 'SELL', qty: 7, orderType: 'MARKET' });
    expect(h.engine.portfolio.netQty('NSE_2885', 's1')).toBe(0);
  });
});

describe('the strategy order view', () => {
  it('ctx.orders.get answers with the last terminal snapshot of the strategy\'s own filled orders of the session, never another strategy\'s', async () => {
    const a = handle();
    const b = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }, { id: 's2', strategy: b.strategy }], retainFinishedOrders: 1, venue: { autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) } });
    h.tick(100_00);
    const tags = [1, 2, 3].map(() => a.h.ctx!.buy('NSE_2885', 1));
    for (const t of tags) expect(a.h.ctx!.orders.get(t)).toMatchObject({ tag: t, status: 'FILLED', filledQty: 1, strategyId: 's1' });
    expect(b.h.ctx!.orders.get(tags[0]!)).toBeUndefined();
  });
});

describe('writes before the placement answer', () => {
  it('holds a modify and a cancel sent before the venue acknowledged the order, and sends them after', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { async: true } });
    const t1 = a.h.ctx!.buy('NSE_2885', 5, { limitPrice: 100_00 });
    a.h.ctx!.submit({ kind: 'modify', target: t1, limitPrice: 100_50 });
    a.h.ctx!.submit({ kind: 'modify', target: t1, qty: 6 });
    const t2 = a.h.ctx!.buy('NSE_2885', 5, { limitPrice: 99_00 });
    a.h.ctx!.submit({ kind: 'modify', target: t2, limitPrice: 99_50 });
    a.h.ctx!.cancel(t2);
    expect(h.venue.writes).toHaveLength(0); // the journal is written first (async venue)
    await h.engine.execution.idle();
    await h.clock.advanceByAsync(0);
    // The two changes to t1 folded into one modify; t2's change was dropped for its cancel.
    expect(h.venue.writesOf('modify').map((w) => [w.req.tag, w.req.limitPrice, w.req.qty])).toEqual([[t1, 100_50, 6]]);
    expect(h.venue.writesOf('cancel').map((w) => w.req.tag)).toEqual([t2]);
    expect(h.engine.orders.get(t1)).toMatchObject({ limitPrice: 100_50, qty: 6 });
    expect(h.of('denied')).toEqual([]);
  });
});

describe('operator actions', () => {
  it('cancelAll and flatten resolve once the venue has confirmed, halt and resume switch the state', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { async: true, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) } });
    h.tick(100_00);
    a.h.ctx!.buy('NSE_2885', 3);
    a.h.ctx!.buy('NSE_2885', 2, { limitPrice: 95_00 });
    await h.engine.execution.idle();
    await h.clock.advanceByAsync(0);
    expect(h.engine.orders.openCount()).toBe(1);
    await h.engine.cancelAll('test', 5_000);
    expect(h.engine.orders.openCount()).toBe(0);
    await h.engine.flatten('test', 5_000);
    expect(h.engine.portfolio.positions()).toEqual([]);
    expect(h.engine.portfolio.netQty('NSE_2885', 's1')).toBe(0);
    h.engine.halt('maintenance');
    expect(h.engine.tradingState()).toBe('halted');
    h.engine.resume();
    expect(h.engine.summary()).toMatchObject({ tradingState: 'active', killSwitch: false, openOrders: 0, venue: 'recording' });
  });

  it('flatten waits for an order whose fills are still being read, then closes that position too', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { async: true, autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) } });
    h.tick(100_00);
    const tag = a.h.ctx!.buy('NSE_2885', 10, { limitPrice: 100_00 });
    await h.engine.execution.idle();
    await h.clock.advanceByAsync(0);
    const orderId = h.engine.orders.get(tag)!.orderId!;
    // The broker says FILLED; the trade has not been read yet: the order is settling, the position flat.
    h.venue.emit({ kind: 'order', order: { orderId, tag, status: 'FILLED', filledQty: 10, avgPrice: 100_00, instrument: 'NSE_2885', side: 'BUY', qty: 10, orderType: 'LIMIT', ts: h.clock.now() } });
    expect(h.engine.orders.get(tag)).toMatchObject({ status: 'FILLED', settling: true });
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
    const flattened = h.engine.flatten('stop', 5_000);
    // The fill is read a moment later.
    h.venue.emit({ kind: 'fill', fill: { fillId: 'BROKER-7', orderId, instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_00, ts: h.clock.now() } });
    await flattened;
    expect(h.venue.writesOf('place').map((w) => [w.req.side, w.req.qty, w.req.orderType])).toEqual([['BUY', 10, 'LIMIT'], ['SELL', 10, 'MARKET']]);
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
  });
});

describe('restart', () => {
  it('adopts its own orders from the order book by tag, attributes them from the journal, and flags foreign ones', async () => {
    const a = handle();
    const h1 = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { async: true } });
    const tag = a.h.ctx!.buy('NSE_2885', 4, { limitPrice: 100_00 });
    await h1.engine.execution.idle();
    const orderId = h1.engine.orders.get(tag)!.orderId!;
    // The process dies here. The broker still has the order (and filled half of it), plus a manual one.
    const book = h1.venue;
    const byHand = manualTag(Date.UTC(2026, 10, 20, 4, 0));
    const b = handle();
    const h2 = await harness({
      store: h1.store,
      strategies: [{ id: 's1', strategy: b.strategy }],
      before: (venue) => {
        venue.seed(book.order(orderId)!);
        venue.fill(orderId, 2, 100_00);
        venue.seed({ orderId: 'MANUAL-1', instrument: 'NSE_11536', side: 'SELL', qty: 1, orderType: 'LIMIT', limitPrice: 4000_00, status: 'OPEN', filledQty: 0, ts: 0 });
        // Placed by hand with `tarang order place`: left alone, neither adopted nor called foreign.
        venue.seed({ orderId: 'HAND-1', tag: byHand, instrument: 'NSE_1333', side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 700_00, status: 'OPEN', filledQty: 0, ts: 0 });
      },
    });
    expect(h2.engine.orders.get(tag)).toMatchObject({ strategyId: 's1', status: 'PARTIALLY_FILLED', filledQty: 2, orderId });
    expect(h2.engine.portfolio.netQty('NSE_2885', 's1')).toBe(2);
    expect(b.h.ctx!.orders.open('NSE_2885').map((o) => o.tag)).toEqual([tag]);
    const alerts = h2.of('alert');
    expect(alerts.find((x) => x.code === 'FOREIGN_ORDERS')?.context).toEqual({ orderIds: ['MANUAL-1'] });
    expect(alerts.some((x) => x.code === 'ORDER_ADOPTED')).toBe(false);
    expect(h2.engine.orders.get(byHand)).toBeUndefined();
    // The restarted strategy can manage the adopted order.
    b.h.ctx!.cancel(tag);
    expect(h2.venue.writesOf('cancel').map((w) => w.req.orderId)).toEqual([orderId]);
  });
});

describe('smart orders and trailing stops', () => {
  it('routes a smart order to the venue with its legs tracked, rejecting a leg on the wrong side first', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    h.tick(100_00);
    const bad = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 101_00 }, validity: 'DAY', product: 'INTRADAY' });
    expect(h.of('denied').find((d) => d.intent.id === bad)).toMatchObject({ code: 'SMART_LEG_BOUND', reason: 'SL trigger price should be less than 100.00' });
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 104_00 }, validity: 'DAY', product: 'INTRADAY' });
    expect(h.venue.writesOf('placeSmart')).toHaveLength(1);
    expect(h.engine.orders.get(`${tag}.sl`)).toMatchObject({ leg: 'stopLoss', parentTag: tag, side: 'SELL', triggerPrice: 98_00 });
    expect(h.engine.orders.get(`${tag}.sl`)?.orderId).toBeDefined();
  });

  it('trails the stop-loss by the step, in whole moves of at least 2 ticks, and holds when the price turns', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 110_00 }, trailingStep: 50, validity: 'DAY', product: 'INTRADAY' });
    // The venue ignores is_tsl (spec 3.4): not sent, and announced as emulated.
    expect(h.venue.writesOf('placeSmart')[0]!.req.trailingStep).toBeUndefined();
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    expect(h.of('alert').map((x) => x.code)).toContain('TRAILING_EMULATED');
    h.tick(100_40); // under one step: nothing
    expect(h.venue.writesOf('modifySmart')).toHaveLength(0);
    h.tick(100_50); // one step
    h.tick(101_20); // two more steps
    h.tick(100_00); // turns: holds
    h.tick(101_30); // below the high: holds
    const mods = h.venue.writesOf('modifySmart').map((w) => w.req.triggerPrice);
    expect(mods).toEqual([98_50, 99_00]);
    expect(h.engine.orders.get(`${tag}.sl`)?.triggerPrice).toBe(99_00);
    expect(h.engine.orders.modifications(`${tag}.sl`)).toBe(2);
  });

  it('a TRIGGER smart order with a trailing step passes risk when the engine trails (the venue does not), and is_tsl is not sent', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'TRIGGER', triggerPrice: 101_00, stopLoss: { triggerPrice: 99_00 }, target: { triggerPrice: 110_00 }, trailingStep: 50, validity: 'DAY', product: 'INTRADAY' });
    expect(h.of('denied')).toEqual([]);
    expect(h.venue.writesOf('placeSmart').map((w) => [w.req.tag, w.req.entryType, w.req.trailingStep])).toEqual([[tag, 'TRIGGER', undefined]]);
  });

  it('a TRIGGER smart order with a trailing step is denied when the venue trails natively (is_tsl would be sent)', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { capabilities: { trailingStop: true } } });
    h.tick(100_00);
    a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'TRIGGER', triggerPrice: 101_00, stopLoss: { triggerPrice: 99_00 }, trailingStep: 50, validity: 'DAY', product: 'INTRADAY' });
    expect(h.of('denied').map((d) => d.code)).toEqual(['INVALID_INTENT']);
    expect(h.venue.writesOf('placeSmart')).toEqual([]);
  });

  it('a refused trailing move is not believed: the stop falls back to the venue\'s trigger, is alerted, and the next level is measured from it', async () => {
    const a = handle();
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      execution: { trailMinTicks: 15 },
      venue: { answer: (w) => (w.kind === 'modifySmart' && w.req.triggerPrice === 99_00 ? { status: 'rejected', reason: 'SL trigger price should be less than 100.00' } : undefined) },
    });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 110_00 }, trailingStep: 50, validity: 'DAY', product: 'INTRADAY' });
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    h.tick(101_00); // two steps: 99.00, refused by the venue
    expect(h.venue.writesOf('modifySmart').map((w) => w.req.triggerPrice)).toEqual([99_00]);
    expect(h.engine.orders.get(`${tag}.sl`)?.triggerPrice).toBe(98_00);
    expect(h.of('alert').find((x) => x.code === 'TRAILING_MODIFY_REFUSED')?.message).toContain('stays at 98.00');
    h.tick(101_20); // still 99.00: the refused level is not asked for again
    expect(h.venue.writesOf('modifySmart')).toHaveLength(1);
    // 99.50 is 1.50 above the stop the venue really holds (98.00), well over the 0.75 minimum move;
    // believing the refused 99.00 would have made it a 0.50 move and skipped it.
    h.tick(101_50);
    expect(h.venue.writesOf('modifySmart').map((w) => w.req.triggerPrice)).toEqual([99_00, 99_50]);
    expect(h.engine.orders.get(`${tag}.sl`)?.triggerPrice).toBe(99_50);
  });

  it('beyond the modification budget the trail is cancelled at the venue and held by the engine', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], risk: { replaceAt: 2, orderRate: { max: 1000, windowMs: 1000 } } });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 110_00 }, trailingStep: 50, validity: 'DAY', product: 'INTRADAY' });
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    h.tick(100_50);
    h.tick(101_00);
    expect(h.venue.writesOf('modifySmart')).toHaveLength(2);
    h.tick(101_50); // third move: out of budget -> local
    expect(h.venue.writesOf('modifySmart')).toHaveLength(2);
    expect(h.venue.writesOf('cancelSmart').map((w) => w.req.leg)).toEqual(['stopLoss']);
    expect(h.of('alert').map((x) => x.code)).toContain('TRAILING_LOCAL');
    h.tick(102_00); // the local stop keeps trailing: 99.50 -> 100.00
    h.engine.halt('operator'); // a halt must not block a protective exit
    h.tick(99_95); // touches the local stop: exit at market, target cancelled
    expect(h.venue.writesOf('cancelSmart').map((w) => w.req.leg)).toEqual(['stopLoss', 'target']);
    expect(h.venue.writesOf('place').at(-1)!.req).toMatchObject({ side: 'SELL', qty: 10, orderType: 'MARKET' });
  });

  it('exit cancels the working legs of a smart order whose entry has filled, by their own ids, and closes the position', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { autoFill: (r) => (r.orderType === 'MARKET' ? 100_00 : undefined) } });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 104_00 }, validity: 'DAY', product: 'INTRADAY' });
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    expect(h.engine.orders.get(tag)?.status).toBe('FILLED');
    a.h.ctx!.exit('NSE_2885');
    const cancels = h.venue.writesOf('cancelSmart').map((w) => w.req);
    expect(cancels.map((c) => c.leg).sort()).toEqual(['stopLoss', 'target']);
    expect(cancels.map((c) => c.orderId).sort()).toEqual([h.engine.orders.get(`${tag}.sl`)!.orderId, h.engine.orders.get(`${tag}.tg`)!.orderId].sort());
    expect(h.engine.orders.get(`${tag}.sl`)?.status).toBe('CANCELLED');
    expect(h.engine.orders.get(`${tag}.tg`)?.status).toBe('CANCELLED');
    expect(h.venue.writesOf('place').at(-1)!.req).toMatchObject({ side: 'SELL', qty: 10, orderType: 'MARKET' });
    expect(h.engine.portfolio.netQty('NSE_2885', 's1')).toBe(0);
  });

  it('exit before the entry fills cancels the smart order once, by the parent id (its legs go with it)', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 99_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 104_00 }, validity: 'DAY', product: 'INTRADAY' });
    a.h.ctx!.exit('NSE_2885');
    expect(h.venue.writesOf('cancelSmart').map((w) => [w.req.leg, w.req.orderId])).toEqual([['entry', h.engine.orders.get(tag)!.orderId]]);
  });

  it('cancelAll (kill switch, flatten) also cancels the legs of smart orders whose entry has filled', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }] });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 104_00 }, validity: 'DAY', product: 'INTRADAY' });
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    h.engine.execution.cancelAll();
    expect(h.venue.writesOf('cancelSmart').map((w) => w.req.leg).sort()).toEqual(['stopLoss', 'target']);
  });

  it('emulates the OCO pair when the venue has no smart orders', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { capabilities: { smartOrders: false } } });
    h.tick(100_00);
    const tag = a.h.ctx!.submit({ kind: 'smart', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, stopLoss: { triggerPrice: 98_00 }, target: { triggerPrice: 104_00 }, validity: 'DAY', product: 'INTRADAY' });
    expect(h.venue.writesOf('place')).toHaveLength(1);
    h.venue.fill(h.engine.orders.get(tag)!.orderId!, 10, 100_00);
    const legs = h.venue.writesOf('place').slice(1).map((w) => w.req);
    expect(legs).toMatchObject([{ side: 'SELL', orderType: 'STOP_LOSS', triggerPrice: 98_00, qty: 10 }, { side: 'SELL', orderType: 'LIMIT', limitPrice: 104_00, qty: 10 }]);
    // The target fills: the stop-loss is cancelled.
    h.venue.fill(h.engine.orders.get(`${tag}.tg`)!.orderId!, 10, 104_00);
    expect(h.venue.writesOf('cancel').map((w) => w.req.tag)).toEqual([`${tag}.sl`]);
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
    expect(h.engine.portfolio.realizedPnl()).toBe(40_00);
  });
});
