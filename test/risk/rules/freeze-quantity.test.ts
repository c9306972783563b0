import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src/core/instruments.js';
import { ConfigError } from '../../../src/core/errors.js';
import { parseRuleFile } from '../../../src/risk/rules/rule-file.js';
import { FreezeFileBody, freezeQuantity, freezeRules, largestSlice, sliceQuantities } from '../../../src/risk/rules/freeze-quantity.js';

const option = (symbol: string, lotSize: number): Instrument => ({
  id: 'NFO_1', exchange: 'NSE', segment: 'FNO', securityId: '1', kind: 'OPTIDX', tradingSymbol: `${symbol}TEST`, symbol, lotSize, tickSize: 5,
});
const bseOption = (symbol: string, lotSize: number): Instrument => ({ ...option(symbol, lotSize), id: 'BFO_1', exchange: 'BSE', tradingSymbol: `${symbol}26DEC85000CE` });

describe('freeze quantities (config/market-rules/freeze-quantities.yaml)', () => {
  it('says where its values come from, revision by revision', () => {
    const r = freezeRules();
    expect(r.lastChecked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.maxSlices).toBe(10);
    for (const rev of r.indices.NSE) expect(rev.source).toMatch(/circular/i);
    // BSE's limits come from a broker's page that gives no date: the revision says so.
    for (const rev of r.indices.BSE) expect(rev.source).toMatch(/ICICI Direct.*not stated/);
  });

  it('knows BSE index limits (SENSEX 1000, BANKEX 900) from 2026-02-01 and none before, looked up by the contract\'s exchange', () => {
    expect(freezeQuantity(bseOption('SENSEX', 20), '2026-02-01')).toBe(1000);
    expect(freezeQuantity(bseOption('BANKEX', 30), '2026-11-20')).toBe(900);
    // The page gives no effective date: before the day it vouches for, no BSE limit is known.
    expect(freezeQuantity(bseOption('SENSEX', 20), '2026-01-30')).toBeUndefined();
    expect(freezeQuantity(bseOption('SENSEX', 10), '2024-06-14')).toBeUndefined();
    // Tables are per exchange: NIFTY is not a BSE contract, SENSEX not an NSE one.
    expect(freezeQuantity(bseOption('NIFTY', 65), '2026-11-20')).toBeUndefined();
    expect(freezeQuantity(option('SENSEX', 20), '2026-11-20')).toBeUndefined();
  });

  it('uses the limit in force on the order day: MIDCPNIFTY 5500 in 2023, 2800 from August 2024, 4200 from March 2025', () => {
    const m = option('MIDCPNIFTY', 50);
    expect(freezeQuantity(m, '2023-05-10')).toBe(5500);
    expect(freezeQuantity(m, '2024-07-31')).toBe(5500);
    expect(freezeQuantity(m, '2024-08-01')).toBe(2800);
    expect(freezeQuantity(m, '2025-03-03')).toBe(4200);
    expect(freezeQuantity(m, '2025-09-01')).toBe(2800);
    expect(freezeQuantity(option('BANKNIFTY', 30), '2025-08-01')).toBe(600);
    expect(freezeQuantity(option('BANKNIFTY', 30), '2025-09-01')).toBe(900);
    // Before the first revision, and an underlying no revision lists: no limit known.
    expect(freezeQuantity(m, '2022-01-03')).toBeUndefined();
    expect(freezeQuantity(option('RELIANCE', 500), '2025-09-01')).toBeUndefined();
    // Cash equity has no freeze quantity.
    expect(freezeQuantity({ ...option('NIFTY', 1), segment: 'EQUITY', kind: 'EQUITY' }, '2025-09-01')).toBeUndefined();
  });

  it('slices into whole lots of at most the freeze quantity, as even as lots allow, and at most max slices', () => {
    expect(largestSlice(1800, 65)).toBe(1755);
    expect(sliceQuantities(5265, 1800, 65, 10)).toEqual([1755, 1755, 1755]);
    expect(sliceQuantities(3900, 1800, 75, 10)).toEqual([1350, 1275, 1275]);
    expect(sliceQuantities(1800 * 10, 1800, 75, 10)).toHaveLength(10);
    expect(sliceQuantities(1800 * 10 + 75, 1800, 75, 10)).toBeUndefined();
    expect(sliceQuantities(200, 100, 150, 10)).toBeUndefined();
  });

  it('refuses a malformed file naming the file and the field', () => {
    const good = 'last_checked: "2026-11-26"\nsource: "NSE circulars, see each revision"\nmax_slices: 10\n';
    const bad = (body: string) => () => parseRuleFile(good + body, 'freeze-quantities.yaml', FreezeFileBody);
    const bse = '  BSE:\n    - { from: "2026-02-01", source: "a broker page x", limits: { SENSEX: 1000 } }\n';
    expect(bad(`exchanges:\n  NSE:\n    - { from: "2025-09-01", source: "NSE circular x", limits: { NIFTY: 1800 } }\n    - { from: "2024-08-01", source: "NSE circular y", limits: { NIFTY: 1800 } }\n${bse}`)).toThrow(
      /freeze-quantities\.yaml: exchanges\.NSE\.1\.from: 2024-08-01 is not after/,
    );
    expect(bad(`exchanges:\n  NSE:\n    - { from: "2025-09-01", source: "NSE circular x", limits: { NIFTY: -5 } }\n${bse}`)).toThrow(/freeze-quantities\.yaml: exchanges\.NSE\.0\.limits\.NIFTY/);
    expect(bad(`exchanges:\n  NSE:\n    - { from: "2025-02-30", source: "NSE circular x", limits: { NIFTY: 1800 } }\n${bse}`)).toThrow(/exchanges\.NSE\.0\.from: not a calendar date/);
    expect(bad(`exchanges:\n  NSE:\n    - { from: "2025-02-03", limits: { NIFTY: 1800 } }\n${bse}`)).toThrow(ConfigError);
    // Both exchanges are required, and no third.
    expect(bad('exchanges:\n  NSE:\n    - { from: "2025-09-01", source: "NSE circular x", limits: { NIFTY: 1800 } }\n')).toThrow(/exchanges\.BSE/);
    expect(bad(`exchanges:\n  NSE:\n    - { from: "2025-09-01", source: "NSE circular x", limits: { NIFTY: 1800 } }\n${bse}  MCX:\n    - { from: "2025-09-01", source: "MCX circular x", limits: { GOLD: 1 } }\n`)).toThrow(/MCX/);
  });
});
