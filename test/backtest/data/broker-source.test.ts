/**
 * Candles through the broker adapter, against the real simulator on loopback: a current equity by
 * scrip code and an expired NIFTY option by trading symbol (spec 4.5, 4.9), paged, cached on
 * disk, cleaned, then backtested.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, istDate, istMidnight } from '../../../src/core/time.js';
import { getStrategy } from '../../../src/strategies/registry.js';
import { backtest } from '../../../backtest/backtest.js';
import { loadBrokerCandles, seriesFromWire } from '../../../backtest/data/broker-source.js';
import { loadExpiredChain } from '../../../backtest/data/expired-chain.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { parseTradingSymbol, resolveExpiredContracts } from '../../../backtest/data/expired-contracts.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { startHarness, type Harness } from '../../adapters/broker/harness.js';
import { CandleCatalog } from '../../../src/adapters/catalog/index.js';

describe('wire candles to a series', () => {
  it('sorts, de-duplicates and computes close times like the CSV loader', () => {
    const day = istMidnight('2025-01-02');
    const c = (m: number, p: number) => ({ start: day + (555 + m) * 60_000, open: p, high: p + 10, low: p - 10, close: p, volume: 5 });
    const r = seriesFromWire('NSE_1', '5minute', [c(5, 100), c(0, 90), c(5, 100)], 'test');
    expect([...r.series.start]).toEqual([day + 555 * 60_000, day + 560 * 60_000]);
    expect(r.series.ts[0]).toBe(day + 560 * 60_000);
    expect(r.drops.duplicates).toBe(1);
    expect(r.repairs.outOfOrder).toBe(1);
  });
});

describe('trading symbols', () => {
  it('reads monthly and weekly NSE F&O symbols', () => {
    expect(parseTradingSymbol('NIFTY24DEC24000CE')).toEqual({ underlying: 'NIFTY', year: 2024, month: 12, strike: 24000, optionType: 'CE' });
    expect(parseTradingSymbol('BANKNIFTY24JANFUT')).toEqual({ underlying: 'BANKNIFTY', year: 2024, month: 1 });
    expect(parseTradingSymbol('NIFTY26N0318050PE')).toEqual({ underlying: 'NIFTY', year: 2026, month: 11, strike: 18050, optionType: 'PE' });
    expect(parseTradingSymbol('RELIANCE')).toBeUndefined();
  });
});

describe('candles from the broker simulator', () => {
  let h: Harness;
  const cache = mkdtempSync(join(tmpdir(), 'tarang-bt-cache-'));
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
    rmSync(cache, { recursive: true, force: true });
  });

  it('downloads a current instrument by scrip code over several windows, caches them, and backtests it', async () => {
    const today = istDate(h.sim.clock.now());
    const from = istMidnight(addDays(today, -20));
    const to = istMidnight(today);
    const catalog = new CandleCatalog(cache);
    const req = { codes: ['NSE_2885'], interval: '5minute' as const, from, to, catalog };
    const first = await loadBrokerCandles(h.broker.client, h.sim.clock, req);
    const s = first.series[0]!;
    expect(s.instrument).toBe('NSE_2885');
    expect(s.interval).toBe('5minute');
    expect(s.length).toBeGreaterThan(300);
    for (let i = 1; i < s.length; i++) expect(s.start[i]!).toBeGreaterThan(s.start[i - 1]!);
    expect(first.summary.notes.join(' ')).toMatch(/NSE_2885: [1-9]\d* calls, 0 windows from the cache/);
    const again = await loadBrokerCandles(h.broker.client, h.sim.clock, req);
    expect(again.summary.notes.join(' ')).toMatch(/NSE_2885: 0 calls, [1-9]\d* windows from the cache/);
    expect([...again.series[0]!.close]).toEqual([...s.close]);
    expect(readdirSync(join(cache, '5minute'))).toEqual(['NSE_2885']);
    catalog.close();
    const out = await backtest({
      definition: getStrategy('sma-cross'),
      params: { instrument: 'NSE_2885', interval: '5minute', fast: 5, slow: 20, qty: 1 },
      series: first.series,
      instruments: instrumentsForSeries(first.series),
      charges: 'equity-intraday',
      cash: 10_000_000,
    });
    expect(out.run.candles).toBe(s.length);
  });

  it('keeps an expired expiry\'s chain in the catalog and reads it back on the next run without calls', async () => {
    const today = istDate(h.sim.clock.now());
    const expiry = (await h.broker.client.expiredExpiries('NIFTY', addDays(today, -60), addDays(today, -1)))[0]!;
    const catalog = new CandleCatalog(join(cache, 'chain'));
    const req = { underlying: 'NIFTY', expiry, underlyingCode: 'NIDX_13', interval: '15minute' as const, from: istMidnight(addDays(expiry, -3)), to: istMidnight(addDays(expiry, 1)), strikes: 1, catalog };
    const first = await loadExpiredChain(h.broker.client, h.sim.clock, req);
    expect(first.sources[1]!.notes[0]).toMatch(/^[1-9]\d* calls for [1-9]\d* contracts$/);
    const again = await loadExpiredChain(h.broker.client, h.sim.clock, req);
    expect(again.sources[1]!.notes[0]).toMatch(/^0 calls for 0 contracts, [1-9]\d* read from the catalog$/);
    expect(again.series.map((x) => [x.instrument, [...x.close]])).toEqual(first.series.map((x) => [x.instrument, [...x.close]]));
    expect(catalog.list().map((l) => l.instrument)).toContain(first.contracts[0]!.trading_symbol);
    catalog.close();
  });

  it('downloads an expired option contract by its trading symbol', async () => {
    const today = istDate(h.sim.clock.now());
    const expiries = await h.broker.client.expiredExpiries('NIFTY', addDays(today, -200), addDays(today, -1));
    expect(expiries.length).toBeGreaterThan(0);
    const expiry = expiries[Math.min(2, expiries.length - 1)]!;
    const chain = await h.broker.client.expiredContracts('NIFTY', expiry, 'OPTIDX');
    const contract = chain.find((c) => c.optionType === 'CE') ?? chain[0]!;
    const symbol = contract.tradingSymbol;
    const r = await loadBrokerCandles(h.broker.client, h.sim.clock, {
      codes: [symbol],
      interval: '15minute',
      from: istMidnight(addDays(expiry, -10)),
      to: istMidnight(addDays(expiry, 1)),
      expired: true,
    });
    const s = r.series[0]!;
    expect(s.instrument).toBe(symbol);
    expect(s.length).toBeGreaterThan(10);
    expect(istDate(s.start[s.length - 1]!) <= expiry).toBe(true);
    // The instrument comes from the expired-contract search: real lot size, strike and expiry.
    const [inst] = await resolveExpiredContracts(h.broker.client, [symbol]);
    expect(inst).toMatchObject({ id: symbol, segment: 'FNO', kind: 'OPTIDX', lotSize: contract.lotSize, expiry, strike: contract.strike });
    const out = await backtest({
      definition: getStrategy('sma-cross'),
      params: { instrument: symbol, interval: '15minute', fast: 3, slow: 8, qty: contract.lotSize, product: 'MARGIN' },
      series: r.series,
      instruments: instrumentsForSeries(r.series, {}, new InstrumentTable([inst!])),
      charges: 'auto',
      cash: 100_000_000,
    });
    expect(out.run.candles).toBe(s.length);
    expect(out.run.fills.every((f) => f.qty % contract.lotSize === 0)).toBe(true);
  });
});
