/**
 * trading-signals behind paise candles (src/strategies/indicators/library.ts): the adapter feeds
 * rupees, holds back values until the indicator is stable, and the session VWAP starts afresh
 * each IST day.
 */
import { describe, expect, it } from 'vitest';
import * as TS from 'trading-signals';
import { indicators, onClose, type CandleInput } from '../../../src/strategies/indicators/library.js';
import { istDateTime } from '../../../src/core/time.js';

// Wilder's RSI worked example (closes in rupees); StockCharts' table gives 70.53, 66.32, 66.55, ...
const CLOSES = [44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03, 46.41, 46.22, 45.64];
const candle = (rupees: number, extra: Partial<CandleInput> = {}): CandleInput => {
  const p = Math.round(rupees * 100);
  return { open: p, high: p, low: p, close: p, volume: 100, ...extra };
};

describe('indicators from trading-signals', () => {
  it('RSI over paise candles equals the library fed rupees, undefined until stable, near the textbook values', () => {
    const rsi = indicators.rsi(14);
    const ref = new TS.RSI(14);
    expect(rsi.warmup).toBe(15);
    const got = CLOSES.map((c) => rsi.update(candle(c)));
    const want = CLOSES.map((c) => ref.update(c, false));
    expect(got.slice(0, 14)).toEqual(Array(14).fill(undefined));
    expect(got.slice(14)).toEqual(want.slice(14));
    expect(got[14]).toBeCloseTo(70.5, 0);
    expect(got[19]).toBeCloseTo(57.9, 0);
    expect(rsi.value).toBe(got[19]);
    expect(rsi.ready).toBe(true);
  });

  it('ATR reads high, low and close in rupees', () => {
    const atr = indicators.atr(3);
    const ref = new TS.ATR(3);
    const bars = [
      [101, 99, 100],
      [103, 100, 102],
      [104, 101, 101.5],
      [102, 98, 99],
      [100, 97, 98.25],
    ] as const;
    for (const [h, l, c] of bars) {
      const v = atr.update({ open: c * 100, high: h * 100, low: l * 100, close: c * 100, volume: 1 });
      const r = ref.update({ high: h, low: l, close: c }, false);
      expect(v).toBe(ref.isStable ? r : undefined);
    }
    expect(atr.value).toBeGreaterThan(2);
  });

  it('MACD, Bollinger, EMA and Stochastic give their library results once stable', () => {
    const macd = indicators.macd(3, 6, 2);
    const bb = indicators.bollinger(5, 2);
    const ema = onClose(new TS.EMA(4));
    const stoch = indicators.stochastic(5, 1, 3);
    for (const c of CLOSES) {
      macd.update(candle(c));
      bb.update(candle(c));
      ema.update(candle(c));
      stoch.update(candle(c, { high: Math.round(c * 100) + 20, low: Math.round(c * 100) - 20 }));
    }
    expect(Object.keys(macd.value!).sort()).toEqual(['histogram', 'macd', 'signal']);
    expect(bb.value!.lower).toBeLessThan(bb.value!.middle);
    expect(bb.value!.upper).toBeGreaterThan(bb.value!.middle);
    expect(ema.value).toBeGreaterThan(45);
    expect(stoch.value!.stochK).toBeGreaterThanOrEqual(0);
    expect(stoch.value!.stochK).toBeLessThanOrEqual(100);
  });

  it('the session VWAP starts afresh on each IST day', () => {
    const vwap = indicators.vwap();
    const d1 = istDateTime('2024-01-02', '09:15');
    const d2 = istDateTime('2024-01-03', '09:15');
    vwap.update({ ...candle(100), volume: 100, start: d1 });
    expect(vwap.update({ ...candle(110), volume: 300, start: d1 + 60_000 })).toBeCloseTo(107.5, 9);
    // The next day begins at its own first candle, not at the two-day average.
    expect(vwap.update({ ...candle(200), volume: 10, start: d2 })).toBeCloseTo(200, 9);
  });
});
