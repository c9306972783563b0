/** The tick frames the hub writes per tick are the same text the general frame builder makes. */
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/core/instruments.js';
import { istDateTime, MINUTE_MS } from '../../../../src/core/time.js';
import { MarketModel, syntheticSpec } from '../../../../src/adapters/simulator/market/index.js';
import { tickData, tickFrame, tickFrameText, TickMode } from '../../../../src/adapters/simulator/ws/ws-messages.js';

const OPEN = istDateTime('2026-11-20', '09:15');

function instrument(i: number): Instrument {
  const fut = i % 5 === 4;
  return fut
    ? { id: `NFO_${43_000 + i}`, exchange: 'NSE', segment: 'FNO', securityId: String(43_000 + i), kind: 'FUTSTK', tradingSymbol: `F${i}`, symbol: `S${i}`, lotSize: 25, tickSize: 10, expiry: '2026-11-26' }
    : { id: `${i % 2 ? 'BSE' : 'NSE'}_${500 + i}`, exchange: i % 2 ? 'BSE' : 'NSE', segment: 'EQUITY', securityId: String(500 + i), kind: 'EQUITY', tradingSymbol: `E${i}`, symbol: `E${i}`, lotSize: 1, tickSize: 5 };
}

describe('simulator tick frames', () => {
  it('writes, in every mode, the text of tickFrame(tickData) with the full quote\'s book totals', () => {
    const model = new MarketModel(Array.from({ length: 40 }, (_, i) => syntheticSpec(instrument(i), 5)), { seed: 5, sessionOpen: OPEN });
    let checked = 0;
    // Plain comparisons per tick (an expect per tick would dominate the run time); the first difference is reported.
    const differences: string[] = [];
    const same = (a: unknown, b: unknown, what: string): void => {
      if (differences.length === 0 && JSON.stringify(a) !== JSON.stringify(b)) differences.push(`${what}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`);
    };
    model.advanceEach(OPEN + 3 * MINUTE_MS, (t) => {
      // As the hub sees it: right after the tick, with the model standing at it.
      const totals = model.bookTotals(t.instrument);
      const quote = model.quote(t.instrument);
      same(totals, { buy: quote.totalBuyQty, sell: quote.totalSellQty }, `totals of ${t.instrument}`);
      for (const mode of [TickMode.LTP, TickMode.QUOTE, TickMode.FULL]) same(tickFrameText(mode, t, totals), tickFrame(mode, t, tickData(mode, t, () => quote)), mode);
      // An instrument the venue does not model has no totals: the tick's own top of book stands in.
      same(tickFrameText(TickMode.FULL, t, undefined), tickFrame(TickMode.FULL, t, tickData(TickMode.FULL, t, () => undefined)), 'full, unmodelled');
      checked++;
    });
    expect(differences).toStrictEqual([]);
    expect(checked).toBeGreaterThan(40 * 3);
  });
});
