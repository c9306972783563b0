import { describe, expect, it } from 'vitest';
import { MatchingEngine, VenueAccount, indianCharges } from '../../../../src/adapters/simulator/matching/index.js';
import { NIFTY_CE, NIFTY_FUT, RELIANCE, harness, instruments } from './fixtures.js';

const R = RELIANCE.id;

describe('venue account', () => {
  it('tracks an intraday round trip: positions, realised P&L and funds', () => {
    const h = harness({ balance: 10_000_000 });
    h.tick(R, 100_000, { bid: 99_995, ask: 100_000 });
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 100_100, validity: 'DAY', product: 'INTRADAY' });
    let p = h.engine.account.position(R, 'INTRADAY')!;
    expect(p).toMatchObject({ netQty: 20, avgPrice: 100_000, dayBuyQty: 20, dayBuyValue: 2_000_000, realizedPnl: 0 });
    let f = h.engine.account.funds();
    // INTRADAY margin 20% of 20 x 1000.00.
    expect(f.usedMargin).toBe(400_000);
    expect(f.available).toBe(10_000_000 - 400_000);

    h.tick(R, 101_000, { bid: 101_000, ask: 101_005 });
    expect(h.engine.account.funds().unrealizedPnl).toBe(20 * 1_000);
    h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 15, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    p = h.engine.account.position(R, 'INTRADAY')!;
    expect(p).toMatchObject({ netQty: 5, daySellQty: 15, daySellValue: 1_515_000, realizedPnl: 15 * 1_000 });
    h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 5, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    p = h.engine.account.position(R, 'INTRADAY')!;
    expect(p).toMatchObject({ netQty: 0, avgPrice: 0, openValue: 0, realizedPnl: 20 * 1_000 });
    f = h.engine.account.funds();
    expect(f).toMatchObject({ usedMargin: 0, realizedPnl: 20_000, available: 10_020_000, sodBalance: 10_000_000 });
  });

  it('turns a position through zero into the other side with the new average', () => {
    const h = harness();
    h.tick(R, 100_000, { bid: 100_000, ask: 100_000 });
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    h.tick(R, 99_000, { bid: 99_000, ask: 99_000 });
    h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 15, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    const p = h.engine.account.position(R, 'INTRADAY')!;
    expect(p).toMatchObject({ netQty: -5, avgPrice: 99_000, openValue: -495_000, realizedPnl: -10_000 });
  });

  it('books CNC buys as T1 holdings that settle into DP at the next day, and refuses uncovered CNC sells', () => {
    const h = harness({ balance: 10_000_000 });
    h.tick(R, 100_000, { bid: 100_000, ask: 100_000 });
    const naked = h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });
    expect(naked.order.extraInfo).toMatch(/Insufficient holdings/);
    h.engine.placeOrder({ instrument: R, side: 'BUY', qty: 4, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });
    expect(h.engine.account.holding(R)).toMatchObject({ totalQty: 4, t1Qty: 4, dpQty: 0, avgPrice: 100_000 });
    expect(h.engine.account.funds().available).toBe(10_000_000 - 400_000);
    const sell = h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 3, orderType: 'LIMIT', limitPrice: 110_000, validity: 'DAY', product: 'CNC' });
    expect(h.engine.account.holding(R)!.usedQty).toBe(3);
    h.engine.cancelOrder(sell.orderId);
    expect(h.engine.account.holding(R)!.usedQty).toBe(0);

    h.engine.expireSession();
    h.clock.advanceBy(24 * 3_600_000);
    h.engine.openSession();
    expect(h.engine.account.holding(R)).toMatchObject({ totalQty: 4, t1Qty: 0, dpQty: 4, dpAvgPrice: 100_000 });
    expect(h.engine.account.funds().sodBalance).toBe(10_000_000);
    expect(h.engine.orders()).toHaveLength(0);
    expect(h.engine.getOrder(naked.orderId)).toBeUndefined();
    h.tick(R, 105_000, { bid: 105_000, ask: 105_000 });
    h.engine.placeOrder({ instrument: R, side: 'SELL', qty: 4, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });
    expect(h.engine.account.holdings()).toHaveLength(0);
    expect(h.engine.account.funds()).toMatchObject({ realizedPnl: 20_000, available: 10_020_000 });
  });

  it('blocks futures SPAN + exposure and option-writing margin; option buying costs the premium', () => {
    const acct = new VenueAccount({ instruments });
    const fut = acct.calculateMargin({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, price: 2_400_000, product: 'MARGIN' });
    expect(fut).toMatchObject({ spanMargin: 21_600_000, exposureMargin: 5_400_000, totalMargin: 27_000_000 });
    expect(fut.availableBalance).toBe(100_000_000);
    expect(fut.insufficientBalance).toBe(0);
    const buy = acct.calculateMargin({ instrument: NIFTY_CE.id, side: 'BUY', qty: 75, price: 15_000, product: 'MARGIN' });
    expect(buy.totalMargin).toBe(1_125_000);
    const write = acct.calculateMargin({ instrument: NIFTY_CE.id, side: 'SELL', qty: 750, price: 15_000, product: 'MARGIN' });
    expect(write).toMatchObject({ spanMargin: 216_000_000, exposureMargin: 54_000_000, totalMargin: 270_000_000, insufficientBalance: 170_000_000 });
    const cnc = acct.calculateMargin({ instrument: R, side: 'BUY', qty: 10, price: 100_000, product: 'CNC' });
    expect(cnc.totalMargin).toBe(1_000_000);
    expect(acct.calculateMargin({ instrument: R, side: 'BUY', qty: 10, price: 100_000, product: 'INTRADAY' }).totalMargin).toBe(200_000);
  });

  it('needs no margin for the part of an order that reduces an open position', () => {
    const h = harness({ balance: 50_000_000 });
    h.tick(NIFTY_FUT.id, 2_400_000, { bid: 2_400_000, ask: 2_400_000 });
    h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' });
    const used = h.engine.account.funds().usedMargin;
    expect(used).toBe(27_000_000);
    h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'SELL', qty: 75, orderType: 'LIMIT', limitPrice: 2_500_000, validity: 'DAY', product: 'MARGIN' });
    expect(h.engine.account.funds().usedMargin).toBe(used);
  });

  it('lets an exit through when losses have left the account under water', () => {
    const h = harness({ balance: 60_000_000 });
    h.tick(NIFTY_FUT.id, 2_400_000, { bid: 2_400_000, ask: 2_400_000 });
    h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 150, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' });
    expect(h.engine.account.position(NIFTY_FUT.id, 'MARGIN')!.netQty).toBe(150);
    h.tick(NIFTY_FUT.id, 1_900_000, { bid: 1_900_000, ask: 1_900_010 });
    h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'SELL', qty: 75, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' });
    expect(h.engine.account.funds().available).toBeLessThan(0);
    const exit = h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'SELL', qty: 75, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' });
    expect(exit.order.venueStatus).toBe('SUCCESS');
    const more = h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'SELL', qty: 75, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' });
    expect(more.order.extraInfo).toMatch(/Insufficient funds/);
  });

  it('computes Indian charges per fill (equity delivery buy of 1,00,000 rupees)', () => {
    const c = indianCharges()({ instrument: RELIANCE, side: 'BUY', qty: 100, price: 100_000, product: 'CNC' });
    // Brokerage min(20, 0.05%) = 20; STT 0.1% = 100; NSE 0.00297% = 2.97; SEBI 0.0001% = 0.10;
    // stamp 0.015% = 15; GST 18% of (20 + 2.97 + 0.10) = 4.15.
    expect(c).toEqual({ brokerage: 2000, stt: 10_000, exchangeCharges: 297, stampDuty: 1_500, sebiTurnoverCharges: 10, gst: 415, totalCharges: 12_222 });
  });

  it('charges fills into brokerage and eq_charges when a calculator is set', () => {
    const h = harness();
    const engine = new MatchingEngine({
      instruments,
      clock: h.clock,
      accountOptions: { openingBalance: 100_000_000, charges: indianCharges() },
    });
    engine.onMarket({ instrument: R, ts: h.clock.now(), ltp: 100_000, bid: 100_000, ask: 100_000 });
    const r = engine.placeOrder({ instrument: R, side: 'BUY', qty: 100, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });
    expect(engine.trades(r.orderId)[0]!.charges).toBe(2000 + 12_222);
    expect(engine.account.funds()).toMatchObject({ brokerage: 2000, eqCharges: 12_222, fnoCharges: 0 });
    expect(engine.account.funds().available).toBe(100_000_000 - 10_000_000 - 14_222);
  });
});
