import { describe, expect, it } from 'vitest';
import { CandleDriver, candlePath, nearerExtremeFirst, type BothTouchedRule, type CandleInput } from '../../../../src/adapters/simulator/matching/index.js';
import { MINUTE_MS } from '../../../../src/core/time.js';
import { OPEN, RELIANCE, harness } from './fixtures.js';

const R = RELIANCE.id;
const FIVE = 5 * MINUTE_MS;

/** Candle number n (0-based) of the day, 5-minute, prices in paise. */
function candle(n: number, o: number, h: number, l: number, c: number, volume?: number): CandleInput {
  const start = OPEN + n * FIVE;
  return { instrument: R, start, ts: start + FIVE, open: o, high: h, low: l, close: c, ...(volume !== undefined ? { volume } : {}) };
}

function backtest(opts: { slippageTicks?: number; rule?: BothTouchedRule; participationRate?: number } = {}) {
  const h = harness({ matchOnArrival: false, slippageTicks: opts.slippageTicks ?? 0 });
  const driver = new CandleDriver(h.engine, {
    bothTouched: opts.rule ?? 'pessimistic',
    ...(opts.participationRate !== undefined ? { participationRate: opts.participationRate } : {}),
  });
  /** Plays candle c and moves the clock to its close, as a backtest loop does before the strategy sees it. */
  const play = (c: CandleInput): number => {
    const q = driver.playCandle(c);
    h.clock.advanceTo(c.ts);
    return q;
  };
  return { ...h, driver, play };
}

describe('candle driver', () => {
  it('fills a MARKET order at the next candle open, not at the close it was decided on', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(0);
    b.play(candle(1, 10_080, 10_200, 10_000, 10_150));
    const t = b.engine.trades(r.orderId);
    expect(t).toHaveLength(1);
    expect(t[0]).toMatchObject({ price: 10_080, qty: 10, ts: OPEN + FIVE });
  });

  it('applies slippage in ticks to market fills', () => {
    const b = backtest({ slippageTicks: 2 });
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const buy = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(1, 10_080, 10_200, 10_000, 10_150));
    expect(b.engine.trades(buy.orderId)[0]!.price).toBe(10_090);
    const sell = b.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(2, 10_150, 10_200, 10_000, 10_100));
    expect(b.engine.trades(sell.orderId)[0]!.price).toBe(10_140);
  });

  it('fills a LIMIT when the candle range crosses it, at the limit', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: 9_900, validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(1, 10_050, 10_100, 9_905, 10_000));
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(0);
    b.play(candle(2, 10_000, 10_050, 9_850, 9_950));
    expect(b.engine.trades(r.orderId)[0]).toMatchObject({ price: 9_900, qty: 10 });
  });

  it('fills at the open when the candle gaps through a LIMIT or a stop', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const lim = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 9_900, validity: 'DAY', product: 'INTRADAY' });
    const stop = b.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'STOP_LOSS', triggerPrice: 9_950, validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(1, 9_700, 9_800, 9_600, 9_750));
    expect(b.engine.trades(lim.orderId)[0]!.price).toBe(9_700);
    expect(b.engine.trades(stop.orderId)[0]!.price).toBe(9_700);
  });

  it('fills a stop triggered inside the range at its trigger price', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const stop = b.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'STOP_LOSS', triggerPrice: 9_950, validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(1, 10_000, 10_050, 9_900, 9_920));
    expect(b.engine.trades(stop.orderId)[0]!.price).toBe(9_950);
  });

  it('never fills an order on a candle that closed before the order was placed (no look-ahead)', () => {
    const b = backtest();
    const c0 = candle(0, 10_000, 10_100, 9_500, 10_050);
    b.play(c0);
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 9_600, validity: 'DAY', product: 'INTRADAY' });
    // Replaying the candle the decision was made on must not fill it, although its low crossed the limit.
    b.driver.playCandle(c0);
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(0);
    b.play(candle(1, 10_000, 10_010, 9_990, 10_000));
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(0);
  });

  describe('a candle touching both the stop-loss and the target', () => {
    const run = (rule: BothTouchedRule, c: CandleInput) => {
      const b = backtest({ rule });
      b.play(candle(0, 10_000, 10_050, 9_950, 10_000));
      const r = b.engine.placeSmartOrder({
        instrument: R, side: 'BUY', qty: 10, entryType: 'MARKET', validity: 'DAY', product: 'INTRADAY',
        stopLoss: { triggerPrice: 9_800 }, target: { triggerPrice: 10_300 },
      });
      b.play(candle(1, 10_000, 10_050, 9_950, 10_000));
      expect(b.engine.getSmartOrder(r.orderId)!.status).toBe('ACTIVE');
      b.play(c);
      return b.engine.getSmartOrder(r.orderId)!;
    };
    const both = candle(2, 10_000, 10_400, 9_700, 10_000);

    it('pessimistic takes the stop-loss first', () => {
      const s = run('pessimistic', both);
      expect(s.stopLoss!.venueStatus).toBe('SUCCESS');
      expect(s.stopLoss!.avgPrice).toBe(9_800);
      expect(s.target!.venueStatus).toBe('CANCELLED');
    });

    it('optimistic takes the target first', () => {
      const s = run('optimistic', both);
      expect(s.target!.venueStatus).toBe('SUCCESS');
      expect(s.target!.avgPrice).toBe(10_300);
      expect(s.stopLoss!.venueStatus).toBe('CANCELLED');
    });

    it('ohlc-path goes to the extreme nearer the open first', () => {
      expect(run('ohlc-path', candle(2, 10_250, 10_400, 9_700, 10_000)).target!.venueStatus).toBe('SUCCESS');
      expect(run('ohlc-path', candle(2, 9_850, 10_400, 9_700, 10_000)).stopLoss!.venueStatus).toBe('SUCCESS');
    });
  });

  it('limits fills to the participation share of candle volume, spreading a large order over candles', () => {
    const b = backtest({ participationRate: 0.1 });
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050, 5_000));
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 250, orderType: 'LIMIT', limitPrice: 10_100, validity: 'DAY', product: 'INTRADAY' });
    b.play(candle(1, 10_050, 10_100, 10_000, 10_050, 1_000));
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(100);
    expect(b.engine.getOrder(r.orderId)!.venueStatus).toBe('PARTIALLY FILLED');
    b.play(candle(2, 10_050, 10_100, 10_000, 10_050, 1_000));
    b.play(candle(3, 10_050, 10_100, 10_000, 10_050, 1_000));
    expect(b.engine.getOrder(r.orderId)!.filledQty).toBe(250);
  });

  it('gives an IOC order one chance, at the next open', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 9_990, validity: 'IOC', product: 'INTRADAY' });
    b.play(candle(1, 10_000, 10_050, 9_900, 10_000));
    expect(b.engine.getOrder(r.orderId)!.venueStatus).toBe('CANCELLED');
  });

  it('expires DAY orders when the backtest closes the session', () => {
    const b = backtest();
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const r = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 9_000, validity: 'DAY', product: 'INTRADAY' });
    b.engine.expireSession(OPEN + 375 * MINUTE_MS);
    expect(b.engine.getOrder(r.orderId)!.venueStatus).toBe('EXPIRED');
  });

  describe('smart-order legs see the path from the point they armed at (issue 13)', () => {
    const smart = (b: ReturnType<typeof backtest>, limitPrice: number, sl: number, tgt: number) =>
      b.engine.placeSmartOrder({
        instrument: R, side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice, validity: 'DAY', product: 'INTRADAY',
        stopLoss: { triggerPrice: sl }, target: { triggerPrice: tgt },
      });

    it('a stop leg armed at a gap open already beyond its trigger fills at the open, inside the candle', () => {
      const b = backtest();
      b.play(candle(0, 10_000, 10_050, 9_950, 10_000));
      const r = smart(b, 9_900, 9_800, 10_300);
      // Opens at 95.00, below both the entry limit and the stop; never trades above 96.00.
      b.play(candle(1, 9_500, 9_600, 9_400, 9_550));
      const s = b.engine.getSmartOrder(r.orderId)!;
      expect(s.entry.avgPrice).toBe(9_500);
      expect(s.stopLoss!.venueStatus).toBe('SUCCESS');
      expect(s.stopLoss!.avgPrice).toBe(9_500);
      expect(s.target!.venueStatus).toBe('CANCELLED');
    });

    it('a stop leg armed mid-segment is checked on the rest of that segment (NVDA 1999-02-22)', () => {
      const b = backtest();
      b.play(candle(0, 17_800, 17_900, 17_700, 17_800));
      const r = smart(b, 17_200, 16_600, 18_500);
      // O 177 H 179 L 166 C 175: the high first, then down through the entry at 172 to the stop at 166.
      b.play(candle(1, 17_700, 17_900, 16_600, 17_500));
      const s = b.engine.getSmartOrder(r.orderId)!;
      expect(s.entry.avgPrice).toBe(17_200);
      expect(s.stopLoss!.venueStatus).toBe('SUCCESS');
      expect(s.stopLoss!.avgPrice).toBe(16_600);
      expect(s.status).toBe('COMPLETED');
    });

    it('a target leg armed by a stop entry mid-segment fills on the rest of that segment at its trigger', () => {
      const b = backtest();
      b.play(candle(0, 9_950, 10_000, 9_900, 9_950));
      const r = b.engine.placeSmartOrder({
        instrument: R, side: 'BUY', qty: 10, entryType: 'TRIGGER', triggerPrice: 10_000, validity: 'DAY', product: 'INTRADAY',
        stopLoss: { triggerPrice: 9_800 }, target: { triggerPrice: 10_100 },
      });
      // Up through the entry trigger at 100.00 and the target at 101.00 to 102.00, closing back at 100.50.
      b.play(candle(1, 9_950, 10_200, 9_900, 10_050));
      const s = b.engine.getSmartOrder(r.orderId)!;
      expect(s.entry.avgPrice).toBe(10_000);
      expect(s.target!.venueStatus).toBe('SUCCESS');
      expect(s.target!.avgPrice).toBe(10_100);
      expect(s.stopLoss!.venueStatus).toBe('CANCELLED');
    });

    it('a leg armed at a point does not fire on the part of the path before that point', () => {
      const b = backtest();
      b.play(candle(0, 10_050, 10_100, 10_000, 10_050));
      const r = smart(b, 10_000, 9_800, 10_040);
      // Open 100.30, high 100.50 (nearer), low 99.00, close 100.20: the target price 100.40 was passed on
      // the way up, before the entry filled at 100.00 on the way down; the rest of the path stays below it.
      b.play(candle(1, 10_030, 10_050, 9_900, 10_020));
      const s = b.engine.getSmartOrder(r.orderId)!;
      expect(s.entry.avgPrice).toBe(10_000);
      expect(s.status).toBe('ACTIVE');
    });
  });

  it('slippage never takes a fill outside the candle', () => {
    const b = backtest({ slippageTicks: 4 });
    b.play(candle(0, 10_000, 10_100, 9_950, 10_050));
    const buy = b.engine.placeOrder({ instrument: R, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    // Opens at its high: 4 ticks of slippage would buy at 101.00, above anything the candle traded.
    b.play(candle(1, 10_080, 10_080, 10_000, 10_050));
    expect(b.engine.trades(buy.orderId)[0]!.price).toBe(10_080);
    const stop = b.engine.placeOrder({ instrument: R, side: 'SELL', qty: 1, orderType: 'STOP_LOSS', triggerPrice: 10_000, validity: 'DAY', product: 'INTRADAY' });
    // The low is the trigger: the stop fills there, not 4 ticks below the candle's low.
    b.play(candle(2, 10_050, 10_060, 10_000, 10_020));
    expect(b.engine.trades(stop.orderId)[0]!.price).toBe(10_000);
  });

  it('builds the path open, extremes, close inside the candle', () => {
    const c = candle(0, 10_000, 10_100, 9_900, 10_050);
    const p = candlePath(c, true);
    expect(p.map((x) => x.price)).toEqual([10_000, 10_100, 9_900, 10_050]);
    expect(p.map((x) => x.mode)).toEqual(['open', 'path', 'path', 'path']);
    expect(p.every((x) => x.ts >= c.start && x.ts < c.ts)).toBe(true);
    expect(nearerExtremeFirst(c)).toBe(false);
    expect(() => b0().driver.playCandle(candle(0, 10_000, 9_000, 9_900, 10_050))).toThrow(/within/);
  });
});

function b0() {
  return backtest();
}
