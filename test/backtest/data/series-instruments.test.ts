import { describe, expect, it } from 'vitest';
import { instrumentForSeries } from '../../../backtest/data/series-instruments.js';
import { seriesFromRows } from '../../../backtest/data/candle-series.js';
import { riskFixture } from '../../risk/fixture.js';
import { ConfigError } from '../../../src/core/errors.js';

const series = (id: string, lotSize?: number) => seriesFromRows(id, '1minute', [], lotSize);

describe('instruments of CSV series named by trading symbol', () => {
  it('gives an index contract without a lot column the lot of its expiry month (config/market-rules/lot-sizes.yaml)', () => {
    expect(instrumentForSeries(series('NIFTY24APR22000CE')).lotSize).toBe(50);
    expect(instrumentForSeries(series('NIFTY24MAY22000CE')).lotSize).toBe(25);
    expect(instrumentForSeries(series('BANKNIFTY25JULFUT')).lotSize).toBe(35);
    expect(instrumentForSeries(series('NIFTY26JANFUT')).lotSize).toBe(65);
    // The file's own lot, then the --lot default, win.
    expect(instrumentForSeries(series('NIFTY24MAY22000CE', 50)).lotSize).toBe(50);
    expect(instrumentForSeries(series('NIFTY24MAY22000CE'), { lotSize: 75 }).lotSize).toBe(75);
  });

  it('makes SENSEX and BANKEX contracts BSE (BFO) index contracts, any other underlying an NSE stock contract', () => {
    expect(instrumentForSeries(series('SENSEX26DEC85000CE'))).toMatchObject({ exchange: 'BSE', segment: 'FNO', kind: 'OPTIDX', symbol: 'SENSEX', lotSize: 20, strike: 8_500_000, optionType: 'CE' });
    expect(instrumentForSeries(series('BANKEX24NOVFUT'))).toMatchObject({ exchange: 'BSE', kind: 'FUTIDX', symbol: 'BANKEX', lotSize: 15 });
    expect(instrumentForSeries(series('NIFTY26JANFUT'))).toMatchObject({ exchange: 'NSE', kind: 'FUTIDX' });
    expect(instrumentForSeries(series('RELIANCE24MAYFUT', 250))).toMatchObject({ exchange: 'NSE', kind: 'FUTSTK', symbol: 'RELIANCE', lotSize: 250 });
    expect(instrumentForSeries(series('M&M24MAY3000PE'), { lotSize: 350 })).toMatchObject({ kind: 'OPTSTK', symbol: 'M&M', lotSize: 350 });
  });

  it('refuses a stock contract whose lot is neither in the file nor given (no lots of 1 for stock F&O)', () => {
    expect(() => instrumentForSeries(series('RELIANCE24MAYFUT'))).toThrow(ConfigError);
    expect(() => instrumentForSeries(series('RELIANCE24MAYFUT'))).toThrow(/^RELIANCE24MAYFUT: the lot size of this stock future is not in the data; give --lot N, the lot RELIANCE contracts of MAY 2024 traded in/);
    expect(() => instrumentForSeries(series('INFY24MAY1500CE'))).toThrow(/this stock option/);
    // An F&O scrip code says nothing of its lot or kind: the master must (--symbol), not a default.
    expect(() => instrumentForSeries(series('NFO_43219'))).toThrow(/^NFO_43219: an F&O contract named by its scrip code, .*backtest it with --symbol NFO_43219/);
    expect(() => instrumentForSeries(series('BFO_861234'), { lotSize: 20 })).toThrow(ConfigError);
    expect(instrumentForSeries(series('NSE_2885'))).toMatchObject({ exchange: 'NSE', segment: 'EQUITY', kind: 'EQUITY', lotSize: 1 });
  });

  it('risk checks quantities against that dated lot', () => {
    const may24 = instrumentForSeries(series('NIFTY24MAY22000CE'));
    const { risk } = riskFixture({}, { instruments: [may24] });
    const buy = (qty: number) => ({ kind: 'place', id: `b${qty}`, strategyId: 's', instrument: may24.id, side: 'BUY', qty, orderType: 'LIMIT', limitPrice: 10_000, validity: 'DAY', product: 'MARGIN' }) as const;
    expect(risk.evaluate(buy(25))?.code).not.toBe('LOT_SIZE');
    expect(risk.evaluate(buy(60))).toEqual({ code: 'LOT_SIZE', reason: `qty 60 is not a multiple of the lot size 25 of ${may24.id}` });
  });
});
