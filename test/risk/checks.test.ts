import { describe, expect, it } from 'vitest';
import type { Intent, PlaceIntent, SmartIntent } from '../../src/core/intents.js';
import { riskFixture, workingOrder } from './fixture.js';

let seq = 0;
const place = (over: Partial<PlaceIntent> = {}): PlaceIntent => ({
  kind: 'place', id: `t${++seq}`, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 10, orderType: 'LIMIT',
  limitPrice: 142_000, validity: 'DAY', product: 'INTRADAY', ...over,
});
const smart = (over: Partial<SmartIntent> = {}): SmartIntent => ({
  kind: 'smart', id: `t${++seq}`, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 10, entryType: 'TRIGGER',
  triggerPrice: 142_000, stopLoss: { triggerPrice: 141_000 }, target: { triggerPrice: 144_000 }, validity: 'DAY', product: 'INTRADAY', ...over,
});

describe('risk checks, one by one', () => {
  it('passes a plain order and publishes nothing', () => {
    const { risk, denied } = riskFixture();
    expect(risk.evaluate(place())).toBeNull();
    expect(denied).toEqual([]);
  });

  it('rejects a 26th modification', () => {
    const { risk, world, denied } = riskFixture();
    world.orders.set('o1', workingOrder('o1'));
    world.mods.set('o1', 24);
    const modify: Intent = { kind: 'modify', id: 'm25', strategyId: 's1', target: 'o1', limitPrice: 142_100 };
    expect(risk.evaluate(modify)).toBeNull(); // the 25th is allowed
    world.mods.set('o1', 25);
    const d = risk.evaluate({ ...modify, id: 'm26' });
    expect(d?.code).toBe('MODIFICATION_CAP');
    expect(d?.reason).toBe('order o1 has had 25 modifications; the cap is 25');
    expect(denied.map((e) => e.intent.id)).toEqual(['m26']);
  });

  it('rejects a smart-order stop-loss above a BUY TRIGGER entry with the broker\'s message', () => {
    const { risk } = riskFixture();
    // Spec 3.5: the entry of a TRIGGER parent is trigger_limit_price, else trigger_price.
    const d = risk.evaluate(smart({ triggerPrice: 142_000, triggerLimitPrice: 142_500, stopLoss: { triggerPrice: 142_600 } }));
    expect(d).toEqual({ code: 'SMART_LEG_BOUND', reason: 'SL trigger price should be less than 1425.00' });
    const t = risk.evaluate(smart({ side: 'SELL', triggerPrice: 142_000, stopLoss: { triggerPrice: 143_000 }, target: { triggerPrice: 142_500 } }));
    expect(t).toEqual({ code: 'SMART_LEG_BOUND', reason: 'Target trigger price should be less than 1420.00' });
    expect(risk.evaluate(smart())).toBeNull();
  });

  it('denies a trailing stop on a TRIGGER parent when the venue would trail it (is_tsl, spec 3.4)', () => {
    const { risk } = riskFixture({}, { trailingMode: 'venue' });
    expect(risk.evaluate(smart({ trailingStep: 50 }))).toMatchObject({ code: 'INVALID_INTENT', reason: expect.stringContaining('TRIGGER') });
    expect(risk.evaluate(smart({ entryType: 'LIMIT', triggerPrice: undefined, limitPrice: 142_000, trailingStep: 50 }))).toBeNull();
  });

  it('allows a trailing stop on a TRIGGER parent when the engine trails it (no is_tsl is sent)', () => {
    const { risk } = riskFixture({}, { trailingMode: 'engine' });
    expect(risk.evaluate(smart({ trailingStep: 50 }))).toBeNull();
    // A trail still needs a stop-loss leg to move.
    expect(risk.evaluate(smart({ trailingStep: 50, stopLoss: undefined }))).toMatchObject({ code: 'INVALID_INTENT', reason: expect.stringContaining('stop-loss leg') });
  });

  it('rejects a quantity that is not a multiple of the lot size', () => {
    const { risk } = riskFixture();
    const d = risk.evaluate(place({ instrument: 'NFO_35001', qty: 100, limitPrice: 2_350_000 }));
    expect(d).toEqual({ code: 'LOT_SIZE', reason: 'qty 100 is not a multiple of the lot size 75 of NFO_35001' });
    expect(risk.evaluate(place({ instrument: 'NFO_35001', qty: 150, limitPrice: 2_350_000 }))).toBeNull();
  });

  it('rejects a price off the tick and one outside the circuit band', () => {
    const { risk } = riskFixture();
    expect(risk.evaluate(place({ limitPrice: 142_003 }))?.reason).toBe('limitPrice ₹1,420.03 is not a positive multiple of the tick size ₹0.05');
    risk.setCircuit('NSE_2885', { lower: 128_400, upper: 156_900 });
    expect(risk.evaluate(place({ limitPrice: 157_000 }))).toEqual({ code: 'CIRCUIT_LIMIT', reason: 'limitPrice ₹1,570.00 is outside the circuit band ₹1,284.00-₹1,569.00 of NSE_2885' });
  });

  it('rejects an unknown instrument, an index, and an order we do not know', () => {
    const { risk } = riskFixture();
    expect(risk.evaluate(place({ instrument: 'NSE_999' }))?.code).toBe('UNKNOWN_INSTRUMENT');
    expect(risk.evaluate(place({ instrument: 'NIDX_13' }))?.reason).toBe('NIDX_13 is an index and cannot be traded');
    expect(risk.evaluate({ kind: 'cancel', id: 'c', strategyId: 's1', target: 'nope' })?.code).toBe('UNKNOWN_ORDER');
  });

  it('rejects an order above the maximum value', () => {
    const { risk } = riskFixture({ maxOrderValue: 1_000_000_00 });
    expect(risk.evaluate(place({ qty: 1000 }))).toEqual({ code: 'MAX_ORDER_VALUE', reason: 'order value ₹14,20,000.00 exceeds the maximum ₹10,00,000.00' });
  });

  it('counts working orders towards the maximum position', () => {
    const { risk, world } = riskFixture({ maxPositionQty: 100 });
    world.net.set('NSE_2885', 60);
    world.orders.set('w', workingOrder('w', { qty: 30 }));
    expect(risk.evaluate(place({ qty: 10 }))).toBeNull();
    expect(risk.evaluate(place({ qty: 20 }))?.reason).toBe('position in NSE_2885 would reach 110 (with working orders); the maximum is 100');
    // Selling down is always fine.
    expect(risk.evaluate(place({ side: 'SELL', qty: 50 }))).toBeNull();
  });

  it('rejects past the maximum of working orders', () => {
    const { risk, world } = riskFixture({ maxOpenOrders: 2 });
    world.orders.set('a', workingOrder('a'));
    world.orders.set('b', workingOrder('b'));
    expect(risk.evaluate(place())?.code).toBe('MAX_OPEN_ORDERS');
  });

  it('rate-limits order writes per strategy over a sliding window, never cancels', () => {
    const { risk, clock, world } = riskFixture({ orderRate: { max: 3, windowMs: 1000 } });
    for (let i = 0; i < 3; i++) expect(risk.evaluate(place())).toBeNull();
    expect(risk.evaluate(place())?.code).toBe('ORDER_RATE');
    expect(risk.evaluate(place({ strategyId: 's2' }))).toBeNull();
    world.orders.set('x', workingOrder('x'));
    expect(risk.evaluate({ kind: 'cancel', id: 'c', strategyId: 's1', target: 'x' })).toBeNull();
    clock.advanceBy(1001);
    expect(risk.evaluate(place())).toBeNull();
  });

  it('estimates margin locally against the available funds', () => {
    const { risk, world } = riskFixture();
    world.funds = 50_000_00; // 50,000 rupees
    // INTRADAY equity: 20% of 10 x 1420 = 2,840 rupees.
    expect(risk.evaluate(place())).toBeNull();
    // CNC: the full 142,000 rupees of 100 shares.
    expect(risk.evaluate(place({ product: 'CNC', qty: 100 }))).toEqual({ code: 'INSUFFICIENT_FUNDS', reason: 'needs margin ₹1,42,000.00, available ₹50,000.00' });
    // A sell that closes a long position needs nothing.
    world.net.set('NSE_2885', 100);
    expect(risk.evaluate(place({ product: 'CNC', qty: 100, side: 'SELL' }))).toBeNull();
  });

  it('after the day\'s loss limit only reducing intents pass', () => {
    const { risk, world } = riskFixture({ maxDailyLoss: 10_000_00 });
    world.pnl = -10_000_00;
    world.net.set('NSE_2885', 10);
    expect(risk.evaluate(place())?.code).toBe('DAILY_LOSS');
    expect(risk.evaluate(place({ side: 'SELL', qty: 10 }))).toBeNull();
  });

  it('applies the trading state: reducing-only, then halted', () => {
    const { risk, world } = riskFixture();
    world.net.set('NSE_2885', 10);
    world.orders.set('x', workingOrder('x'));
    risk.setTradingState('reducing');
    expect(risk.evaluate(place())?.code).toBe('TRADING_STATE');
    expect(risk.evaluate(place({ side: 'SELL', qty: 10 }))).toBeNull();
    expect(risk.evaluate(place({ side: 'SELL', qty: 20 }))?.code).toBe('TRADING_STATE');
    risk.setTradingState('halted');
    expect(risk.evaluate(place({ side: 'SELL', qty: 10 }))?.reason).toBe('trading is halted: only cancels and exits are accepted');
    expect(risk.evaluate({ kind: 'cancel', id: 'c', strategyId: 's1', target: 'x' })).toBeNull();
    expect(risk.evaluate({ kind: 'exit', id: 'e', strategyId: 's1', instrument: 'NSE_2885' })).toBeNull();
  });

  it('runs only the enabled checks, in order', () => {
    const { risk } = riskFixture({ checks: ['tickSize'] });
    expect(risk.evaluate(place({ instrument: 'NFO_35001', qty: 1, limitPrice: 2_350_000 }))).toBeNull();
  });
});

describe('kill switch', () => {
  it('trips once at the loss limit, halts, alerts, persists and calls the flattening handler', async () => {
    const { risk, world, bus, store } = riskFixture({ maxDailyLoss: 5_000_00 });
    const alerts: string[] = [];
    bus.on('alert', (a) => alerts.push(a.code));
    const flattened: string[] = [];
    risk.onKillSwitch = (r) => flattened.push(r);
    world.pnl = -4_999_99;
    risk.onPnl();
    expect(risk.tradingState()).toBe('active');
    world.pnl = -5_000_00;
    risk.onPnl();
    risk.onPnl();
    expect(risk.tradingState()).toBe('halted');
    expect(flattened).toEqual(['daily loss ₹5,000.00 reached the limit ₹5,000.00']);
    expect(alerts).toEqual(['KILL_SWITCH']);
    await new Promise((r) => setImmediate(r));
    expect(await store.get('risk', 'killSwitch')).toMatchObject({ reason: flattened[0] });
  });

  it('a restart comes back halted', async () => {
    const a = riskFixture({ maxDailyLoss: 1 });
    a.world.pnl = -1;
    a.risk.onPnl();
    await new Promise((r) => setImmediate(r));
    const b = riskFixture();
    for (const ns of ['risk']) for (const [k, v] of await a.store.entries(ns)) await b.store.set(ns, k, v);
    await b.risk.load();
    expect(b.risk.tradingState()).toBe('halted');
    expect(b.risk.killSwitch()).toBe(true);
    b.risk.setTradingState('active');
    expect(b.risk.killSwitch()).toBe(false);
  });
});
