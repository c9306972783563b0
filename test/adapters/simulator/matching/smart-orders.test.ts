import { describe, expect, it } from 'vitest';
import { VenueInputError } from '../../../../src/adapters/simulator/matching/index.js';
import { checkSmartLegBounds } from '../../../../src/risk/rules/smart-leg-bounds.js';
import { RELIANCE, harness } from './fixtures.js';

const R = RELIANCE.id;
const base = { instrument: R, qty: 10, validity: 'DAY', product: 'INTRADAY' } as const;

describe('smart-order leg bounds (spec 3.5)', () => {
  it('names the bound for a BUY: stop-loss below, target above the entry', () => {
    expect(checkSmartLegBounds({ side: 'BUY', entryPrice: 142_050, slTriggerPrice: 142_100 })).toBe('SL trigger price should be less than 1420.50');
    expect(checkSmartLegBounds({ side: 'BUY', entryPrice: 142_050, slTriggerPrice: 142_050 })).toBe('SL trigger price should be less than 1420.50');
    expect(checkSmartLegBounds({ side: 'BUY', entryPrice: 142_050, tgtTriggerPrice: 142_000 })).toBe('Target trigger price should be greater than 1420.50');
    expect(checkSmartLegBounds({ side: 'BUY', entryPrice: 142_050, slTriggerPrice: 141_000, tgtTriggerPrice: 145_000 })).toBeUndefined();
  });

  it('names the bound for a SELL: stop-loss above, target below the entry', () => {
    expect(checkSmartLegBounds({ side: 'SELL', entryPrice: 142_050, slTriggerPrice: 142_000 })).toBe('SL trigger price should be greater than 1420.50');
    expect(checkSmartLegBounds({ side: 'SELL', entryPrice: 142_050, tgtTriggerPrice: 142_100 })).toBe('Target trigger price should be less than 1420.50');
    expect(checkSmartLegBounds({ side: 'SELL', entryPrice: 142_050, slTriggerPrice: 143_000, tgtTriggerPrice: 141_000 })).toBeUndefined();
  });

  it('checks a TRIGGER parent against trigger_limit_price, else trigger_price, and records nothing on rejection', () => {
    const h = harness();
    h.tick(R, 140_000);
    const place = (extra: object) => () => h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'TRIGGER', ...extra });
    expect(place({ triggerPrice: 142_000, triggerLimitPrice: 142_050, stopLoss: { triggerPrice: 142_050 } })).toThrow(
      'SL trigger price should be less than 1420.50',
    );
    expect(place({ triggerPrice: 142_000, stopLoss: { triggerPrice: 142_000 } })).toThrow('SL trigger price should be less than 1420.00');
    expect(place({ triggerPrice: 142_000, limitPrice: 150_000, target: { triggerPrice: 141_500 } })).toThrow(
      'Target trigger price should be greater than 1420.00',
    );
    expect(() => h.engine.placeSmartOrder({ ...base, side: 'SELL', entryType: 'LIMIT', limitPrice: 142_050, stopLoss: { triggerPrice: 141_000 } })).toThrow(
      'SL trigger price should be greater than 1420.50',
    );
    expect(h.engine.orders()).toHaveLength(0);
  });
});

describe('smart orders', () => {
  it('creates a parent with GTT legs that stay PENDING until the entry fills, then arms them as an OCO pair', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeSmartOrder({
      ...base, side: 'BUY', entryType: 'LIMIT', limitPrice: 142_000, stopLoss: { triggerPrice: 141_000 }, target: { triggerPrice: 144_000 }, remarks: 'tag-1',
    });
    expect(r.status).toBe('CREATED');
    expect(r.orderId).toMatch(/^EQ-\d+$/);
    const s = r.smart;
    expect(s.stopLoss!.orderId).toMatch(/^GTT-\d+$/);
    expect(s.target!.orderId).toMatch(/^GTT-\d+$/);
    expect(s.stopLoss!.venueStatus).toBe('PENDING');
    expect([s.entry.remarks, s.stopLoss!.remarks, s.target!.remarks]).toEqual(['tag-1', 'tag-1', 'tag-1']);

    h.tick(R, 141_950);
    const active = h.engine.getSmartOrder(r.orderId)!;
    expect(active.status).toBe('ACTIVE');
    expect(active.entry.venueStatus).toBe('SUCCESS');
    expect(active.stopLoss!.venueStatus).toBe('SL-PENDING');
    expect(active.stopLoss!.qty).toBe(10);
    expect(active.stopLoss!.side).toBe('SELL');

    h.tick(R, 144_100, { bid: 144_100, ask: 144_105 });
    const done = h.engine.getSmartOrder(r.orderId)!;
    expect(done.target!.venueStatus).toBe('SUCCESS');
    expect(done.stopLoss!.venueStatus).toBe('CANCELLED');
    expect(done.stopLoss!.extraInfo).toMatch(/OCO/);
    expect(done.status).toBe('COMPLETED');
    expect(h.engine.account.position(R, 'INTRADAY')!.netQty).toBe(0);
  });

  it('cancels the target when the stop-loss fills', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeSmartOrder({ ...base, side: 'SELL', entryType: 'MARKET', stopLoss: { triggerPrice: 144_000 }, target: { triggerPrice: 140_000 } });
    expect(h.engine.getSmartOrder(r.orderId)!.status).toBe('ACTIVE');
    h.tick(R, 144_050, { bid: 144_045, ask: 144_050 });
    const s = h.engine.getSmartOrder(r.orderId)!;
    expect(s.stopLoss!.venueStatus).toBe('SUCCESS');
    expect(s.target!.venueStatus).toBe('CANCELLED');
    expect(h.engine.account.position(R, 'INTRADAY')!.realizedPnl).toBe(10 * (142_645 - 144_050));
  });

  it('modifies and cancels the parent and each leg by their own ids', () => {
    const h = harness();
    h.tick(R, 142_650);
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'LIMIT', limitPrice: 142_000, stopLoss: { triggerPrice: 141_000 }, target: { triggerPrice: 144_000 } });
    h.engine.modifySmartOrder(r.orderId, { limitPrice: 141_500 });
    expect(h.engine.getOrder(r.orderId)!.limitPrice).toBe(141_500);
    expect(() => h.engine.modifySmartOrder(r.smart.stopLoss!.orderId, { triggerPrice: 141_600 })).toThrow('SL trigger price should be less than 1415.00');
    h.engine.modifySmartOrder(r.smart.target!.orderId, { triggerPrice: 145_000 });
    expect(h.engine.getOrder(r.smart.target!.orderId)!.triggerPrice).toBe(145_000);
    h.tick(R, 141_500);
    h.engine.cancelSmartOrder(r.smart.target!.orderId);
    const s = h.engine.getSmartOrder(r.orderId)!;
    expect(s.target!.venueStatus).toBe('CANCELLED');
    expect(s.stopLoss!.venueStatus).toBe('SL-PENDING');
    expect(s.status).toBe('ACTIVE');
    h.engine.cancelSmartOrder(r.orderId);
    const c = h.engine.getSmartOrder(r.orderId)!;
    expect(c.status).toBe('CANCELLED');
    expect(c.stopLoss!.venueStatus).toBe('CANCELLED');
  });

  it('keeps a working smart order across a new day while finished orders are forgotten', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const done = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'LIMIT', limitPrice: 142_000, stopLoss: { triggerPrice: 141_000 } });
    h.engine.expireSession();
    h.clock.advanceBy(24 * 3_600_000);
    h.engine.openSession();
    expect(h.engine.getOrder(done.orderId)).toBeUndefined();
    expect(h.engine.orders().map((o) => o.orderId)).toEqual([r.orderId, r.smart.stopLoss!.orderId]);
    h.tick(R, 141_900, { bid: 141_895, ask: 141_900 });
    expect(h.engine.getSmartOrder(r.orderId)!.status).toBe('ACTIVE');
  });

  it('cancelling an unfilled parent cancels its dormant legs', () => {
    const h = harness();
    h.tick(R, 142_650);
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'LIMIT', limitPrice: 142_000, stopLoss: { triggerPrice: 141_000 } });
    h.engine.cancelOrder(r.orderId);
    const s = h.engine.getSmartOrder(r.orderId)!;
    expect(s.status).toBe('CANCELLED');
    expect(s.entry.venueStatus).toBe('CANCELLED');
    expect(s.stopLoss!.venueStatus).toBe('CANCELLED');
  });

  it('fires a TRIGGER entry when the price reaches it', () => {
    const h = harness();
    h.tick(R, 142_000);
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'TRIGGER', triggerPrice: 143_000, stopLoss: { triggerPrice: 142_000 } });
    expect(r.smart.entry.venueStatus).toBe('SL-PENDING');
    h.tick(R, 142_900);
    expect(h.engine.getSmartOrder(r.orderId)!.status).toBe('CREATED');
    h.tick(R, 143_050, { bid: 143_045, ask: 143_050 });
    const s = h.engine.getSmartOrder(r.orderId)!;
    expect(s.entry.venueStatus).toBe('SUCCESS');
    expect(s.status).toBe('ACTIVE');
  });

  it('once a TRIGGER entry has filled, a stop-loss leg may be moved above the entry price (checked against the last price instead)', () => {
    const h = harness();
    h.tick(R, 142_000);
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'TRIGGER', triggerPrice: 143_000, stopLoss: { triggerPrice: 142_000 }, target: { triggerPrice: 150_000 } });
    const sl = r.smart.stopLoss!.orderId;
    const tg = r.smart.target!.orderId;
    // Pending parent: spec 3.5's bound against the entry price still holds.
    expect(() => h.engine.modifySmartOrder(sl, { triggerPrice: 143_500 })).toThrow('SL trigger price should be less than 1430.00');
    h.tick(R, 143_050, { bid: 143_045, ask: 143_050 });
    expect(h.engine.getSmartOrder(r.orderId)!.entry.venueStatus).toBe('SUCCESS');
    h.tick(R, 145_000);
    h.engine.modifySmartOrder(sl, { triggerPrice: 144_000 }); // above the 1430 entry: locks in profit
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(144_000);
    expect(() => h.engine.modifySmartOrder(sl, { triggerPrice: 145_000 })).toThrow('Trigger price for a SELL stop-loss order should be less than the last traded price 1450.00');
    expect(() => h.engine.modifySmartOrder(tg, { triggerPrice: 144_500 })).toThrow('Target trigger price for a SELL order should be greater than the last traded price 1450.00');
    h.engine.modifySmartOrder(tg, { triggerPrice: 146_000 });
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(144_000);
    // The moved stop is hit: the position is closed at a profit.
    h.tick(R, 143_900, { bid: 143_895, ask: 143_900 });
    expect(h.engine.getOrder(sl)!.venueStatus).toBe('SUCCESS');
    expect(h.engine.getOrder(tg)!.venueStatus).toBe('CANCELLED');
    expect(h.engine.account.position(R, 'INTRADAY')!.netQty).toBe(0);
  });

  it('once a SELL entry has filled, its stop-loss leg may be moved below the entry price but not below the last price', () => {
    const h = harness();
    h.tick(R, 142_000);
    const r = h.engine.placeSmartOrder({ ...base, side: 'SELL', entryType: 'MARKET', stopLoss: { triggerPrice: 143_000 } });
    expect(h.engine.getSmartOrder(r.orderId)!.status).toBe('ACTIVE');
    h.tick(R, 140_000);
    h.engine.modifySmartOrder(r.smart.stopLoss!.orderId, { triggerPrice: 141_000 });
    expect(h.engine.getOrder(r.smart.stopLoss!.orderId)!.triggerPrice).toBe(141_000);
    expect(() => h.engine.modifySmartOrder(r.smart.stopLoss!.orderId, { triggerPrice: 139_500 })).toThrow('Trigger price for a BUY stop-loss order should be greater than the last traded price 1400.00');
  });

  it('fails a leg that triggers after the holding it protected was sold elsewhere', () => {
    const h = harness();
    h.tick(R, 142_000, { bid: 142_000, ask: 142_000 });
    const r = h.engine.placeSmartOrder({ ...base, product: 'CNC', side: 'BUY', entryType: 'MARKET', stopLoss: { triggerPrice: 141_000 } });
    h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 10, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });
    expect(h.engine.account.holdings()).toHaveLength(0);
    h.tick(R, 140_900, { bid: 140_900, ask: 140_905 });
    const s = h.engine.getSmartOrder(r.orderId)!;
    expect(s.stopLoss!.venueStatus).toBe('FAILED');
    expect(s.stopLoss!.extraInfo).toMatch(/Insufficient holdings/);
    expect(s.status).toBe('CANCELLED');
  });

  it('accepts and ignores is_tsl with trailing off (the default)', () => {
    const h = harness();
    h.tick(R, 142_000, { bid: 141_995, ask: 142_000 });
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'MARKET', stopLoss: { triggerPrice: 141_000 }, isTsl: true, tslStepSize: 100 });
    expect(r.smart.isTsl).toBe(true);
    expect(r.smart.trailing).toBe(false);
    h.tick(R, 145_000);
    expect(h.engine.getOrder(r.smart.stopLoss!.orderId)!.triggerPrice).toBe(141_000);
    // TRIGGER parents are fine while trailing is off: the flag is ignored.
    expect(() => h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'TRIGGER', triggerPrice: 150_000, isTsl: true })).not.toThrow();
  });

  it('with trailing on, moves the stop-loss by whole steps of favourable movement and holds when price turns', () => {
    const h = harness({ tsl: 'on' });
    h.tick(R, 142_000, { bid: 141_995, ask: 142_000 });
    const r = h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'MARKET', stopLoss: { triggerPrice: 141_000 }, isTsl: true, tslStepSize: 100 });
    const sl = r.smart.stopLoss!.orderId;
    expect(r.smart.trailing).toBe(true);
    h.tick(R, 142_050);
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(141_000);
    h.tick(R, 142_250);
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(141_200);
    h.tick(R, 142_390);
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(141_300);
    h.tick(R, 141_800);
    expect(h.engine.getOrder(sl)!.triggerPrice).toBe(141_300);
    h.tick(R, 141_300, { bid: 141_300, ask: 141_305 });
    expect(h.engine.getOrder(sl)!.venueStatus).toBe('SUCCESS');
    expect(h.engine.getSmartOrder(r.orderId)!.status).toBe('COMPLETED');
  });

  it('with trailing on, trails a SELL entry downwards', () => {
    const h = harness({ tsl: 'on' });
    h.tick(R, 142_000, { bid: 142_000, ask: 142_005 });
    const r = h.engine.placeSmartOrder({ ...base, side: 'SELL', entryType: 'MARKET', stopLoss: { triggerPrice: 143_000 }, isTsl: true, tslStepSize: 50 });
    h.tick(R, 141_880);
    expect(h.engine.getOrder(r.smart.stopLoss!.orderId)!.triggerPrice).toBe(142_900);
    h.tick(R, 142_500);
    expect(h.engine.getOrder(r.smart.stopLoss!.orderId)!.triggerPrice).toBe(142_900);
  });

  it('with trailing on, refuses TSL on a TRIGGER parent and without a stop-loss leg', () => {
    const h = harness({ tsl: 'on' });
    h.tick(R, 142_000);
    expect(() =>
      h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'TRIGGER', triggerPrice: 143_000, stopLoss: { triggerPrice: 142_500 }, isTsl: true, tslStepSize: 100 }),
    ).toThrow(/not supported for TRIGGER/);
    expect(() => h.engine.placeSmartOrder({ ...base, side: 'BUY', entryType: 'LIMIT', limitPrice: 141_000, isTsl: true, tslStepSize: 100 })).toThrow(VenueInputError);
  });
});
