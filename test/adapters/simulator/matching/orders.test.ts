import { describe, expect, it } from 'vitest';
import { VenueInputError, VenueNotFoundError, VenueOrderError } from '../../../../src/adapters/simulator/matching/index.js';
import { CLOSE, NIFTY_FUT, RELIANCE, harness } from './fixtures.js';
import { istDateTime } from '../../../../src/core/time.js';

const R = RELIANCE.id;

describe('regular orders', () => {
  it('rests a LIMIT order as O-PENDING and fills it at its limit when the market crosses', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 142_000, validity: 'DAY', product: 'INTRADAY' });
    expect(r.orderId).toMatch(/^EQ-\d+$/);
    expect(r.venueStatus).toBe('O-PENDING');
    expect(r.order.status).toBe('OPEN');
    h.tick(R, 142_100, { bid: 142_095, ask: 142_100 });
    expect(h.engine.getOrder(r.orderId)!.filledQty).toBe(0);
    h.tick(R, 141_900, { bid: 141_895, ask: 141_900 });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.venueStatus).toBe('SUCCESS');
    expect(o.status).toBe('FILLED');
    expect(o.avgPrice).toBe(142_000);
    const trades = h.engine.trades(r.orderId);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ qty: 10, price: 142_000, side: 'BUY' });
    expect(trades[0]!.fillId).toMatch(/^\d+$/);
  });

  it('takes a marketable LIMIT arrival from the book level by level and rests the remainder as PARTIALLY FILLED', () => {
    const h = harness();
    const depth = {
      bids: [{ price: 142_600, qty: 100 }],
      asks: [
        { price: 142_650, qty: 3 },
        { price: 142_655, qty: 4 },
        { price: 142_700, qty: 50 },
      ],
    };
    h.tick(R, 142_650, { bid: 142_600, ask: 142_650, depth });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 142_660, validity: 'DAY', product: 'INTRADAY' });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.filledQty).toBe(7);
    expect(o.venueStatus).toBe('PARTIALLY FILLED');
    expect(h.engine.trades(r.orderId).map((t) => [t.qty, t.price])).toEqual([
      [3, 142_650],
      [4, 142_655],
    ]);
  });

  it('fills a MARKET order at once against the book and records it as a LIMIT at its protection price', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_655 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 5, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    expect(r.order.orderType).toBe('LIMIT');
    expect(r.order.requestedOrderType).toBe('MARKET');
    // 3% above 1426.50 = 1469.295, rounded down to the 0.05 tick.
    expect(r.order.limitPrice).toBe(146_925);
    expect(r.order.venueStatus).toBe('SUCCESS');
    expect(h.engine.trades(r.orderId)[0]!.price).toBe(142_655);
  });

  it('refuses a MARKET order when no price is known', () => {
    const h = harness();
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 5, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    expect(r.order.venueStatus).toBe('FAILED');
    expect(r.rejection?.message).toMatch(/No market price/);
  });

  it('cancels the unfilled part of an IOC order on thin depth (PARTIALLY FILLED - CANCELLED)', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650, askQty: 4 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'MARKET', validity: 'IOC', product: 'INTRADAY' });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.filledQty).toBe(4);
    expect(o.venueStatus).toBe('PARTIALLY FILLED - CANCELLED');
    expect(o.status).toBe('CANCELLED');
    expect(o.extraInfo).toMatch(/IOC/);
  });

  it('cancels an IOC LIMIT order that cannot trade at once', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 140_000, validity: 'IOC', product: 'INTRADAY' });
    expect(r.order.venueStatus).toBe('CANCELLED');
    expect(h.engine.account.funds().usedMargin).toBe(0);
  });

  it('waits in SL-PENDING until a STOP_LOSS (market) triggers, then fills against the book', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 2, orderType: 'STOP_LOSS', triggerPrice: 143_000, validity: 'DAY', product: 'INTRADAY' });
    expect(r.venueStatus).toBe('SL-PENDING');
    expect(r.order.status).toBe('TRIGGER_PENDING');
    h.tick(R, 142_950, { bid: 142_945, ask: 142_950 });
    expect(h.engine.getOrder(r.orderId)!.venueStatus).toBe('SL-PENDING');
    h.tick(R, 143_050, { bid: 143_045, ask: 143_055 });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.venueStatus).toBe('SUCCESS');
    expect(h.engine.trades(r.orderId)[0]!.price).toBe(143_055);
  });

  it('turns a triggered STOP_LOSS with a limit into a working limit when the market is beyond it', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeOrder({
      instrument: R, side: 'SELL', qty: 2, orderType: 'STOP_LOSS', triggerPrice: 142_000, limitPrice: 141_900, validity: 'DAY', product: 'INTRADAY',
    });
    h.tick(R, 141_800, { bid: 141_800, ask: 141_805 });
    expect(h.engine.getOrder(r.orderId)!.venueStatus).toBe('O-PENDING');
    h.tick(R, 141_950, { bid: 141_950, ask: 141_955 });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.venueStatus).toBe('SUCCESS');
    expect(o.avgPrice).toBe(141_900);
  });

  it('refuses a BUY stop whose trigger is not above the last price', () => {
    const h = harness();
    h.tick(R, 142_650);
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'STOP_LOSS', triggerPrice: 142_000, validity: 'DAY', product: 'INTRADAY' });
    expect(r.order.venueStatus).toBe('FAILED');
    expect(r.order.extraInfo).toBe('Trigger price for a BUY stop-loss order should be greater than the last traded price 1426.50');
  });

  it('expires working DAY orders at the session close, part-filled ones as PARTIALLY FILLED - EXPIRED', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650, askQty: 3 });
    const part = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 5, orderType: 'LIMIT', limitPrice: 142_650, validity: 'DAY', product: 'INTRADAY' });
    const none = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 5, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'INTRADAY' });
    expect(h.engine.getOrder(part.orderId)!.filledQty).toBe(3);
    h.clock.advanceTo(CLOSE);
    h.engine.expireSession();
    expect(h.engine.getOrder(part.orderId)!.venueStatus).toBe('PARTIALLY FILLED - EXPIRED');
    expect(h.engine.getOrder(none.orderId)!.venueStatus).toBe('EXPIRED');
    expect(h.engine.getOrder(none.orderId)!.status).toBe('EXPIRED');
    expect(h.engine.account.funds().usedMargin).toBe(h.engine.account.position(R, 'INTRADAY')!.netQty * 142_650 * 0.2);
  });

  it('holds an AMO until the next session open and fills it at the first price after the open', () => {
    const h = harness({ sessionOpen: false });
    h.tick(R, 142_650);
    const inSession = harness();
    inSession.tick(R, 142_650);
    const refused = inSession.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'CNC', isAmo: true });
    expect(refused.order.venueStatus).toBe('FAILED');
    const notAmo = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 142_000, validity: 'DAY', product: 'CNC' });
    expect(notAmo.order.extraInfo).toMatch(/Market is closed/);

    const amo = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 4, orderType: 'LIMIT', limitPrice: 143_000, validity: 'DAY', product: 'CNC', isAmo: true });
    expect(amo.venueStatus).toBe('O-PENDING');
    h.tick(R, 142_700);
    expect(h.engine.getOrder(amo.orderId)!.filledQty).toBe(0);
    h.engine.openSession(h.clock.now());
    h.tick(R, 142_800, { mode: 'open' });
    const o = h.engine.getOrder(amo.orderId)!;
    expect(o.venueStatus).toBe('SUCCESS');
    expect(o.avgPrice).toBe(142_800);
  });

  it('rejects a 26th modification with an OrderException and keeps the order unchanged', () => {
    const h = harness();
    h.tick(R, 142_650);
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 130_000, validity: 'DAY', product: 'INTRADAY' });
    for (let i = 1; i <= 25; i++) {
      const m = h.engine.modifyOrder(r.orderId, { limitPrice: 130_000 + i * 5 });
      expect(m.venueStatus).toBe('MODIFIED');
    }
    let err: unknown;
    try {
      h.engine.modifyOrder(r.orderId, { limitPrice: 131_000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VenueOrderError);
    expect((err as VenueOrderError).errorType).toBe('OrderException');
    expect((err as Error).message).toMatch(/maximum of 25 modifications/);
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.modifications).toBe(25);
    expect(o.limitPrice).toBe(130_125);
  });

  it('fills a modified order when its new price crosses the book', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 3, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'INTRADAY' });
    h.engine.modifyOrder(r.orderId, { limitPrice: 142_700, qty: 4 });
    const o = h.engine.getOrder(r.orderId)!;
    expect(o.qty).toBe(4);
    expect(o.venueStatus).toBe('SUCCESS');
    expect(o.avgPrice).toBe(142_650);
  });

  it('cancels a working order and refuses to cancel or modify a finished one', () => {
    const h = harness();
    h.tick(R, 142_650);
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'INTRADAY' });
    expect(h.engine.cancelOrder(r.orderId).venueStatus).toBe('CANCELLED');
    expect(() => h.engine.cancelOrder(r.orderId)).toThrow(VenueOrderError);
    expect(() => h.engine.modifyOrder(r.orderId, { qty: 2 })).toThrow(/CANCELLED and cannot be modified/);
    expect(() => h.engine.cancelOrder('EQ-1')).toThrow(VenueNotFoundError);
  });

  it('truncates remarks at 100 characters and refuses the reserved value', () => {
    const h = harness();
    h.tick(R, 142_650);
    const long = 'x'.repeat(99) + 'yz';
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'INTRADAY', remarks: long });
    expect(r.order.remarks).toBe('x'.repeat(99) + 'y');
    expect(r.order.remarks).toHaveLength(100);
    expect(() =>
      h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'INTRADAY', remarks: 'TV-TERMINAL' }),
    ).toThrow(VenueInputError);
    expect(h.engine.orders()).toHaveLength(1);
  });

  it('gives derivative orders DRV- ids and refuses off-lot quantities, off-tick prices and index instruments', () => {
    const h = harness();
    h.tick(NIFTY_FUT.id, 2_400_000);
    const r = h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'LIMIT', limitPrice: 2_390_000, validity: 'DAY', product: 'MARGIN' });
    expect(r.orderId).toMatch(/^DRV-\d+$/);
    expect(() => h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 70, orderType: 'LIMIT', limitPrice: 2_390_000, validity: 'DAY', product: 'MARGIN' })).toThrow(
      /not a multiple of the lot size 75/,
    );
    expect(() => h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 142_003, validity: 'DAY', product: 'CNC' })).toThrow(
      'limit_price: 1420.03 is not a multiple of the tick size 0.05',
    );
    expect(() => h.engine.placeOrder({ instrument: 'NIDX_13', side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' })).toThrow(/index/);
    expect(() => h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'MARKET', validity: 'DAY', product: 'CNC' })).toThrow(/product/);
  });

  it('refuses unknown enum values coming from the wire with the field named', () => {
    const h = harness();
    const bad = { instrument: R, side: 'HOLD', qty: 1, orderType: 'LIMIT', limitPrice: 140_000, validity: 'DAY', product: 'CNC' } as unknown as Parameters<typeof h.engine.placeOrder>[0];
    expect(() => h.engine.placeOrder(bad)).toThrow('txn_type: expected one of BUY, SELL, got "HOLD"');
    expect(() => h.engine.placeOrder({ ...bad, side: 'BUY', validity: 'GTC' } as unknown as typeof bad)).toThrow(/validity/);
  });

  it('records an unfundable order as FAILED with an OrderException-style reason', () => {
    const h = harness({ balance: 1_000_000 });
    h.tick(R, 142_650);
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 142_650, validity: 'DAY', product: 'CNC' });
    expect(r.venueStatus).toBe('FAILED');
    expect(r.order.status).toBe('REJECTED');
    expect(r.rejection).toEqual({ errorType: 'OrderException', message: 'Insufficient funds: required margin 14265.00, available 10000.00' });
    expect(r.order.extraInfo).toBe(r.rejection!.message);
    expect(h.engine.orders().map((o) => o.orderId)).toContain(r.orderId);
  });

  it('refuses a price outside the circuit band', () => {
    const h = harness();
    h.tick(R, 142_650, { upperCircuit: 156_900, lowerCircuit: 128_400 });
    const r = h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 157_000, validity: 'DAY', product: 'CNC' });
    expect(r.order.extraInfo).toBe('Price 1570.00 is outside the circuit limits 1284.00 - 1569.00');
  });

  it('emits order, fill and position events in order, after the state change', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 2, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    expect(h.events.map((e) => e.type)).toEqual(['order', 'fill', 'order', 'position']);
    const fill = h.events[1]!;
    expect(fill.type === 'fill' && fill.order.venueStatus).toBe('SUCCESS');
    const pos = h.events[3]!;
    expect(pos.type === 'position' && pos.position.netQty).toBe(2);
  });

  it('delivers every event to every listener when one throws, then reports the failure', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const seen: string[] = [];
    h.engine.subscribe(() => {
      throw new Error('push failed');
    });
    h.engine.subscribe((e) => seen.push(e.type));
    expect(() => h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' })).toThrow(
      /listener failed: push failed/,
    );
    expect(seen).toEqual(['order', 'fill', 'order', 'position']);
    expect(h.engine.account.position(R, 'INTRADAY')!.netQty).toBe(1);
  });

  it('lets a listener place an order from inside a fill, its events queued after the current ones', () => {
    const h = harness();
    h.tick(R, 142_650, { bid: 142_645, ask: 142_650 });
    const types: string[] = [];
    let exitId: string | undefined;
    h.engine.subscribe((e) => {
      types.push(e.type === 'order' ? `order:${e.order.side}:${e.order.venueStatus}` : e.type);
      if (e.type === 'fill' && e.trade.side === 'BUY') {
        exitId = h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'LIMIT', limitPrice: 143_000, validity: 'DAY', product: 'INTRADAY' }).orderId;
      }
    });
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    expect(types).toEqual(['order:BUY:O-PENDING', 'fill', 'order:BUY:SUCCESS', 'position', 'order:SELL:O-PENDING']);
    expect(h.engine.getOrder(exitId!)!.venueStatus).toBe('O-PENDING');
  });

  it('is deterministic: the same calls give the same ids, records and events', () => {
    const run = (): unknown => {
      const h = harness();
      h.tick(R, 142_650, { bid: 142_645, ask: 142_650, askQty: 3 });
      h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 5, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
      h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 2, orderType: 'LIMIT', limitPrice: 143_000, validity: 'DAY', product: 'INTRADAY' });
      h.tick(R, 143_100, { bid: 143_095, ask: 143_100 });
      return { events: h.events, orders: h.engine.orders(), trades: h.engine.trades() };
    };
    expect(JSON.stringify(run())).toBe(JSON.stringify(run()));
  });
});

describe('books of expired contracts', () => {
  it('forgets the book of a contract at the first session after its expiry, keeping live ones', () => {
    const h = harness();
    const expiryClose = istDateTime('2026-11-26', '15:30');
    h.tick(NIFTY_FUT.id, 2_410_000);
    h.tick(RELIANCE.id, 142_650);
    h.clock.advanceTo(expiryClose);
    h.engine.expireSession();
    h.engine.openSession(istDateTime('2026-11-26', '15:30') + 1);
    // Still the expiry date: the contract keeps its book.
    expect(h.engine.lastPrice(NIFTY_FUT.id)).toBe(2_410_000);
    h.engine.expireSession();
    h.clock.advanceTo(istDateTime('2026-11-27', '09:15'));
    h.engine.openSession(h.clock.now());
    expect(h.engine.lastPrice(NIFTY_FUT.id)).toBeUndefined();
    expect(h.engine.lastPrice(RELIANCE.id)).toBe(142_650);
  });
});
