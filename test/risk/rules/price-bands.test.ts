import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src/core/instruments.js';
import { parseRuleFile } from '../../../src/risk/rules/rule-file.js';
import { executionRange, PriceBandFileBody, priceBandRefusal, priceBandRules } from '../../../src/risk/rules/price-bands.js';

const fut: Instrument = { id: 'NFO_1', exchange: 'NSE', segment: 'FNO', securityId: '1', kind: 'FUTIDX', tradingSymbol: 'NIFTY26DECFUT', symbol: 'NIFTY', lotSize: 65, tickSize: 10 };
const opt: Instrument = { ...fut, id: 'NFO_2', kind: 'OPTIDX', tradingSymbol: 'NIFTY26DEC24600CE', tickSize: 5 };
const DAY = '2026-11-20';

describe('F&O execution range (config/market-rules/price-bands.yaml)', () => {
  it('is 5% around the reference for futures, Rs 20 for options up to Rs 50 and 40% above', () => {
    expect(executionRange(fut, 2_400_000, DAY)).toEqual({ lower: 2_280_000, upper: 2_520_000 });
    expect(executionRange(opt, 30_00, DAY)).toEqual({ lower: 10_00, upper: 50_00 });
    expect(executionRange(opt, 50_00, DAY)).toEqual({ lower: 30_00, upper: 70_00 });
    expect(executionRange(opt, 100_00, DAY)).toEqual({ lower: 60_00, upper: 140_00 });
    // Never below one tick.
    expect(executionRange(opt, 2_50, DAY)).toEqual({ lower: 5, upper: 22_50 });
    // Cash equity and days before the first revision: none.
    expect(executionRange({ ...fut, segment: 'EQUITY', kind: 'EQUITY' }, 100_00, DAY)).toBeUndefined();
    expect(executionRange(fut, 100_00, '2015-01-01')).toBeUndefined();
    expect(priceBandRules().revisions[0]!.source).toMatch(/NSE/);
  });

  it('words the refusal with the price, the range and the reference', () => {
    expect(priceBandRefusal(opt, 150_00, 100_00, DAY)).toBe(`Price 150.00 of NIFTY26DEC24600CE is outside the execution range 60.00 - 140.00 around the reference price 100.00`);
    expect(priceBandRefusal(opt, 140_00, 100_00, DAY)).toBeUndefined();
    expect(priceBandRefusal(opt, 150_00, undefined, DAY)).toBeUndefined();
  });

  it('refuses a malformed file naming the file and the field', () => {
    const text = 'last_checked: "2026-11-26"\nsource: "NSE circulars on the execution range"\nrevisions:\n  - { from: "2016-02-08", source: "NSE circular x", futures_pct: 5, options: { absolute_up_to: 50, absolute: 20, pct_above: 140 } }\n';
    expect(() => parseRuleFile(text, 'price-bands.yaml', PriceBandFileBody)).toThrow(/price-bands\.yaml: revisions\.0\.options\.pct_above/);
  });
});
