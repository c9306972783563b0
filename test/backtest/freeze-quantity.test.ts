/**
 * Freeze quantity in the backtest (src/risk/rules/freeze-quantity.ts): the limit in force on the
 * order's own day (MIDCPNIFTY 5500 until July 2024, 2800 from 2024-08-01), denied by risk with the
 * broker's words, refused by the matching engine in the same words when risk's check is off, and
 * placed in slices with `execution.autoSlice`. The same for a BSE index option (BFO: SENSEX, named
 * by trading symbol as a CSV series is) and for an NSE stock future against an imported qtyfreeze
 * file (hand-written, illustrative numbers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import type { ExecutionConfigInput } from '../../src/adapters/execution/config.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import { ALL_CHECKS } from '../../src/risk/config.js';
import { freezeLimitMessage } from '../../src/risk/rules/freeze-quantity.js';
import { market, minuteSeries, newScript, scripted } from './support/scripted.js';
import { instrumentForSeries } from '../../backtest/data/series-instruments.js';
import { seriesFromRows } from '../../backtest/data/candle-series.js';
import { stockFreezeHome, type StockFreezeHome } from '../support/stock-freeze.js';

const FUT: Instrument = {
  id: 'NFO_90001', exchange: 'NSE', segment: 'FNO', securityId: '90001', kind: 'FUTIDX',
  tradingSymbol: 'MIDCPNIFTY24SEPFUT', symbol: 'MIDCPNIFTY', lotSize: 50, tickSize: 5, expiry: '2024-09-24',
};

async function run(day: string, o: { risk?: RiskConfigInput; execution?: ExecutionConfigInput; instrument?: Instrument; qty?: number; price?: number } = {}) {
  const inst = o.instrument ?? FUT;
  // Bars around `price` (rupees), MIDCPNIFTY's 12000 unless given.
  const p = (x: number): number => ((o.price ?? 12_000) * x) / 12_000;
  const series = [
    minuteSeries(inst.id, day, [
      ['09:15', p(12_000), p(12_010), p(11_990), p(12_000)],
      ['09:16', p(12_000), p(12_020), p(11_995), p(12_010)],
      ['09:17', p(12_010), p(12_030), p(12_000), p(12_020)],
    ]),
  ];
  return backtest({
    definition: scripted([inst.id], newScript({ [`${inst.id}@09:15`]: [market(inst.id, 'BUY', o.qty ?? 3000, 'MARGIN')] }), ['1minute']),
    params: {},
    series,
    instruments: new InstrumentTable([inst]),
    charges: 'none',
    cash: 10_000_000_000,
    ...(o.risk ? { risk: o.risk } : {}),
    ...(o.execution ? { execution: o.execution } : {}),
  });
}

const sliceQtys = (fills: readonly { tag: string; qty: number }[]): number[] => {
  const byOrder = new Map<string, number>();
  for (const f of fills) byOrder.set(f.tag, (byOrder.get(f.tag) ?? 0) + f.qty);
  expect([...byOrder.keys()].every((t) => /\.s\d+$/.test(t))).toBe(true);
  return [...byOrder.values()];
};

// A CSV series named by a SENSEX option's trading symbol: a BSE (BFO) index option, lot 20.
const SENSEX_CE = instrumentForSeries(seriesFromRows('SENSEX26DEC85000CE', '1minute', []));
const RELIANCE_FUT: Instrument = {
  id: 'NFO_52001', exchange: 'NSE', segment: 'FNO', securityId: '52001', kind: 'FUTSTK', tradingSymbol: 'RELIANCE26DECFUT', symbol: 'RELIANCE', lotSize: 500, tickSize: 10, expiry: '2026-12-29',
};

let home: StockFreezeHome | undefined;
afterEach(() => {
  home?.close();
  home = undefined;
});

describe('freeze quantity in the backtest', () => {
  it('takes an order of 3000 in July 2024, when the MIDCPNIFTY freeze quantity was 5500', async () => {
    const out = await run('2024-07-15');
    expect(out.run.fills.reduce((a, f) => a + f.qty, 0)).toBe(3000);
    expect(out.run.denials.count).toBe(0);
  });

  it('denies the same order in September 2024 (freeze 2800 from 2024-08-01) with the broker\'s words', async () => {
    const out = await run('2024-09-02');
    expect(out.run.fills).toEqual([]);
    expect(out.run.denials.byCode['FREEZE_QTY']).toBe(1);
    expect(out.run.denials.first[0]!.reason).toBe(freezeLimitMessage(FUT, 3000, 2800));
  });

  it('the matching engine refuses it in the same words when risk does not check it', async () => {
    const out = await run('2024-09-02', { risk: { checks: ALL_CHECKS.filter((c) => c !== 'freezeQty') } });
    expect(out.run.fills).toEqual([]);
    expect(out.run.denials.byCode['VENUE_REJECTED']).toBe(1);
    expect(out.run.denials.first[0]!.reason).toContain(freezeLimitMessage(FUT, 3000, 2800));
  });

  it('with execution.autoSlice places it as two orders of 1500 and fills it whole', async () => {
    const out = await run('2024-09-02', { execution: { autoSlice: true } });
    expect(out.run.denials.count).toBe(0);
    const byOrder = new Map<string, number>();
    for (const f of out.run.fills) byOrder.set(f.tag, (byOrder.get(f.tag) ?? 0) + f.qty);
    expect([...byOrder.values()]).toEqual([1500, 1500]);
    expect([...byOrder.keys()].every((t) => /\.s[12]$/.test(t))).toBe(true);
  });

  it('slices the engine\'s own intraday exit of a position above the freeze quantity, with autoSlice off', async () => {
    const day = '2024-09-02';
    const series = [
      minuteSeries(FUT.id, day, [
        ['09:15', 12_000, 12_010, 11_990, 12_000],
        ['09:16', 12_000, 12_020, 11_995, 12_010],
        ['15:19', 12_010, 12_030, 12_000, 12_020],
        ['15:20', 12_020, 12_030, 12_010, 12_020],
        ['15:21', 12_020, 12_030, 12_010, 12_020],
      ]),
    ];
    const buy = market(FUT.id, 'BUY', 2800, 'INTRADAY');
    const out = await backtest({
      definition: scripted([FUT.id], newScript({ [`${FUT.id}@09:15`]: [buy], [`${FUT.id}@09:16`]: [buy] }), ['1minute']),
      params: {},
      series,
      instruments: new InstrumentTable([FUT]),
      charges: 'none',
      cash: 10_000_000_000,
    });
    expect(out.run.denials.count).toBe(0);
    const sells = out.run.fills.filter((f) => f.side === 'SELL');
    expect(sells.map((f) => f.qty)).toEqual([2800, 2800]);
    expect(sells.every((f) => /\.s[12]$/.test(f.tag) && f.strategyId !== undefined)).toBe(true);
    expect(out.report.trades.every((t) => t.exitReason === 'intraday-exit')).toBe(true);
  });

  it('a SENSEX option named by trading symbol is a BFO contract: 1020 denied in December 2026 (BSE freeze 1000), taken in 2025 when no BSE limit is known', async () => {
    expect(SENSEX_CE).toMatchObject({ exchange: 'BSE', segment: 'FNO', kind: 'OPTIDX', symbol: 'SENSEX', lotSize: 20 });
    const denied = await run('2026-12-01', { instrument: SENSEX_CE, price: 120, qty: 1020 });
    expect(denied.run.fills).toEqual([]);
    expect(denied.run.denials.first[0]).toMatchObject({ code: 'FREEZE_QTY', reason: freezeLimitMessage(SENSEX_CE, 1020, 1000) });
    const refused = await run('2026-12-01', { instrument: SENSEX_CE, price: 120, qty: 1020, risk: { checks: ALL_CHECKS.filter((c) => c !== 'freezeQty') } });
    expect(refused.run.denials.first[0]!.reason).toContain(freezeLimitMessage(SENSEX_CE, 1020, 1000));
    const sliced = await run('2026-12-01', { instrument: SENSEX_CE, price: 120, qty: 1020, execution: { autoSlice: true } });
    expect(sliced.run.denials.count).toBe(0);
    expect(sliceQtys(sliced.run.fills)).toEqual([520, 500]);
    const earlier = await run('2025-06-02', { instrument: SENSEX_CE, price: 120, qty: 1020 });
    expect(earlier.run.denials.count).toBe(0);
    expect(earlier.run.fills.reduce((a, f) => a + f.qty, 0)).toBe(1020);
  });

  it('a stock future: denied above the imported qtyfreeze limit in force (illustrative 3000 for RELIANCE), taken before that revision', async () => {
    home = stockFreezeHome();
    home.store('2026-11-02');
    const denied = await run('2026-11-20', { instrument: RELIANCE_FUT, price: 1300, qty: 3500 });
    expect(denied.run.fills).toEqual([]);
    expect(denied.run.denials.first[0]).toMatchObject({ code: 'FREEZE_QTY', reason: freezeLimitMessage(RELIANCE_FUT, 3500, 3000) });
    const refused = await run('2026-11-20', { instrument: RELIANCE_FUT, price: 1300, qty: 3500, risk: { checks: ALL_CHECKS.filter((c) => c !== 'freezeQty') } });
    expect(refused.run.denials.byCode['VENUE_REJECTED']).toBe(1);
    expect(refused.run.denials.first[0]!.reason).toContain(freezeLimitMessage(RELIANCE_FUT, 3500, 3000));
    const sliced = await run('2026-11-20', { instrument: RELIANCE_FUT, price: 1300, qty: 3500, execution: { autoSlice: true } });
    expect(sliced.run.denials.count).toBe(0);
    expect(sliceQtys(sliced.run.fills)).toEqual([2000, 1500]);
    // Before the first imported revision no stock limit is known: the order goes through whole.
    const before = await run('2026-10-30', { instrument: RELIANCE_FUT, price: 1300, qty: 3500 });
    expect(before.run.denials.count).toBe(0);
    expect(before.run.fills.reduce((a, f) => a + f.qty, 0)).toBe(3500);
  });
});
