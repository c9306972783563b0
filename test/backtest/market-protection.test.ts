/**
 * Market protection in the backtest (src/risk/rules/market-protection.ts): a MARKET order is a
 * LIMIT at the last price +/- the configured percentage, one value for matching and risk, so a gap
 * wider than the protection leaves it unfilled exactly as the broker would.
 */
import { describe, expect, it } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import { instrumentsForSeries } from '../../backtest/data/series-instruments.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import { market, minuteSeries, newScript, scripted } from './support/scripted.js';

const DAY = '2024-01-02';
// A 2% gap up at 09:16 that never comes back below 101.50.
const series = () => [
  minuteSeries('NSE_1', DAY, [
    ['09:15', 100, 100.5, 99.5, 100],
    ['09:16', 102, 103, 101.5, 102.5],
    ['09:17', 102.5, 103, 102, 102.5],
  ]),
];

async function run(o: { marketProtectionPct?: number; risk?: RiskConfigInput }) {
  const s = series();
  return backtest({
    definition: scripted(['NSE_1'], newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 10)] }), ['1minute']),
    params: {},
    series: s,
    instruments: instrumentsForSeries(s),
    charges: 'none',
    cash: 1_000_000,
    ...o,
  });
}

describe('market protection in the backtest', () => {
  it('fills a MARKET buy through a 2% gap with the default 3% protection, at the open', async () => {
    const out = await run({});
    expect(out.run.fills.map((f) => [f.qty, f.price])).toEqual([[10, 10_200]]);
    expect(out.report.run.marketProtectionPct).toBe(3);
  });

  it("leaves it unfilled when risk's protection is 1%: the limit 101.00 is never reached", async () => {
    const out = await run({ risk: { marketProtectionPct: 1 } });
    expect(out.run.fills).toEqual([]);
    expect(out.run.denials.count).toBe(0);
    expect(out.report.run.marketProtectionPct).toBe(1);
  });

  it('takes the backtest setting over risk, for matching and risk alike', async () => {
    const out = await run({ marketProtectionPct: 1, risk: { marketProtectionPct: 3 } });
    expect(out.run.fills).toEqual([]);
  });
});
