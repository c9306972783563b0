/**
 * The F&O execution range in the backtest (src/risk/rules/price-bands.ts): a LIMIT order priced
 * more than 5% from a future's last price is denied by risk, and refused by the matching engine in
 * the same words when risk does not check it; one inside fills.
 */
import { describe, expect, it } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import { ALL_CHECKS, type RiskConfigInput } from '../../src/risk/config.js';
import { priceBandRefusal } from '../../src/risk/rules/price-bands.js';
import { limit, minuteSeries, newScript, scripted } from './support/scripted.js';

const DAY = '2025-03-10';
const FUT: Instrument = {
  id: 'NFO_90002', exchange: 'NSE', segment: 'FNO', securityId: '90002', kind: 'FUTIDX',
  tradingSymbol: 'NIFTY25MARFUT', symbol: 'NIFTY', lotSize: 75, tickSize: 5, expiry: '2025-03-27',
};

async function run(rupees: number, risk?: RiskConfigInput) {
  const series = [
    minuteSeries(FUT.id, DAY, [
      ['09:15', 22_000, 22_010, 21_990, 22_000],
      ['09:16', 22_000, 22_020, 21_995, 22_010],
      ['09:17', 22_010, 22_030, 22_000, 22_020],
    ]),
  ];
  return backtest({
    definition: scripted([FUT.id], newScript({ [`${FUT.id}@09:15`]: [limit(FUT.id, 'BUY', 75, rupees, 'MARGIN')] }), ['1minute']),
    params: {},
    series,
    instruments: new InstrumentTable([FUT]),
    charges: 'none',
    cash: 10_000_000_000,
    ...(risk ? { risk } : {}),
  });
}

describe('F&O execution range in the backtest', () => {
  it('fills a LIMIT buy inside the range', async () => {
    const out = await run(22_050);
    expect(out.run.fills.map((f) => f.qty)).toEqual([75]);
  });

  it('denies one more than 5% above the last price with the rule\'s words', async () => {
    const out = await run(23_200);
    expect(out.run.fills).toEqual([]);
    expect(out.run.denials.first[0]).toMatchObject({ code: 'PRICE_BAND', reason: priceBandRefusal(FUT, 2_320_000, 2_200_000, DAY) });
  });

  it('the matching engine refuses it in the same words when risk does not check it', async () => {
    const out = await run(23_200, { checks: ALL_CHECKS.filter((c) => c !== 'priceBand') });
    expect(out.run.fills).toEqual([]);
    expect(out.run.denials.first[0]!.code).toBe('VENUE_REJECTED');
    expect(out.run.denials.first[0]!.reason).toContain(priceBandRefusal(FUT, 2_320_000, 2_200_000, DAY)!);
  });
});
