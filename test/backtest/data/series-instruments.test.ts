import { describe, expect, it } from 'vitest';
import { instrumentForSeries } from '../../../backtest/data/series-instruments.js';
import { seriesFromRows } from '../../../backtest/data/candle-series.js';
import { riskFixture } from '../../risk/fixture.js';

const series = (id: string, lotSize?: number) => seriesFromRows(id, '1minute', [], lotSize);

describe('instruments of CSV series named by trading symbol', () => {
  it('gives an index contract without a lot column the lot of its expiry month (config/market-rules/lot-sizes.yaml)', () => {
    expect(instrumentForSeries(series('NIFTY24APR22000CE')).lotSize).toBe(50);
    expect(instrumentForSeries(series('NIFTY24MAY22000CE')).lotSize).toBe(25);
    expect(instrumentForSeries(series('BANKNIFTY25JULFUT')).lotSize).toBe(35);
    expect(instrumentForSeries(series('NIFTY26JANFUT')).lotSize).toBe(65);
    // The file's own lot, then the --lot default, win; a stock contract has none from the rules.
    expect(instrumentForSeries(series('NIFTY24MAY22000CE', 50)).lotSize).toBe(50);
    expect(instrumentForSeries(series('NIFTY24MAY22000CE'), { lotSize: 75 }).lotSize).toBe(75);
    expect(instrumentForSeries(series('RELIANCE24MAYFUT')).lotSize).toBe(1);
  });

  it('risk checks quantities against that dated lot', () => {
    const may24 = instrumentForSeries(series('NIFTY24MAY22000CE'));
    const { risk } = riskFixture({}, { instruments: [may24] });
    const buy = (qty: number) => ({ kind: 'place', id: `b${qty}`, strategyId: 's', instrument: may24.id, side: 'BUY', qty, orderType: 'LIMIT', limitPrice: 10_000, validity: 'DAY', product: 'MARGIN' }) as const;
    expect(risk.evaluate(buy(25))?.code).not.toBe('LOT_SIZE');
    expect(risk.evaluate(buy(60))).toEqual({ code: 'LOT_SIZE', reason: `qty 60 is not a multiple of the lot size 25 of ${may24.id}` });
  });
});
