/**
 * Freeze quantity in the backtest (src/risk/rules/freeze-quantity.ts): the limit in force on the
 * order's own day (MIDCPNIFTY 5500 until July 2024, 2800 from 2024-08-01), denied by risk with the
 * broker's words, refused by the matching engine in the same words when risk's check is off, and
 * placed in slices with `execution.autoSlice`.
 */
import { describe, expect, it } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import type { ExecutionConfigInput } from '../../src/adapters/execution/config.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import { ALL_CHECKS } from '../../src/risk/config.js';
import { freezeLimitMessage } from '../../src/risk/rules/freeze-quantity.js';
import { market, minuteSeries, newScript, scripted } from './support/scripted.js';

const FUT: Instrument = {
  id: 'NFO_90001', exchange: 'NSE', segment: 'FNO', securityId: '90001', kind: 'FUTIDX',
  tradingSymbol: 'MIDCPNIFTY24SEPFUT', symbol: 'MIDCPNIFTY', lotSize: 50, tickSize: 5, expiry: '2024-09-24',
};

async function run(day: string, o: { risk?: RiskConfigInput; execution?: ExecutionConfigInput } = {}) {
  const series = [
    minuteSeries(FUT.id, day, [
      ['09:15', 12_000, 12_010, 11_990, 12_000],
      ['09:16', 12_000, 12_020, 11_995, 12_010],
      ['09:17', 12_010, 12_030, 12_000, 12_020],
    ]),
  ];
  return backtest({
    definition: scripted([FUT.id], newScript({ [`${FUT.id}@09:15`]: [market(FUT.id, 'BUY', 3000, 'MARGIN')] }), ['1minute']),
    params: {},
    series,
    instruments: new InstrumentTable([FUT]),
    charges: 'none',
    cash: 10_000_000_000,
    ...o,
  });
}

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
});
