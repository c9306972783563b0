import { describe, expect, it } from 'vitest';
import { parseRuleFile } from '../../../src/risk/rules/rule-file.js';
import { indexLotSize, LotFileBody, lotSizeRules } from '../../../src/risk/rules/lot-sizes.js';

const HEAD = 'last_checked: "2026-11-26"\nsource: "NSE circulars, see each entry"\n';

describe('index lot sizes by contract expiry (config/market-rules/lot-sizes.yaml)', () => {
  it('gives each contract the lot of its expiry, through every revision and its source', () => {
    expect(indexLotSize('NIFTY', '2024-04-25')).toBe(50);
    expect(indexLotSize('NIFTY', '2024-05-02')).toBe(25);
    expect(indexLotSize('NIFTY', '2025-01-30')).toBe(75);
    expect(indexLotSize('NIFTY', '2026-01-27')).toBe(65);
    // BANKNIFTY 30 -> 35 from the July 2025 monthly (2025-07-31), back to 30 from January 2026.
    expect(indexLotSize('BANKNIFTY', '2025-06-26')).toBe(30);
    expect(indexLotSize('BANKNIFTY', '2025-07-31')).toBe(35);
    expect(indexLotSize('BANKNIFTY', '2026-01-27')).toBe(30);
    // MIDCPNIFTY 50 -> 120 in January 2025, 140 from 2025-07-31.
    expect(indexLotSize('MIDCPNIFTY', '2025-03-27')).toBe(120);
    expect(indexLotSize('MIDCPNIFTY', '2025-08-28')).toBe(140);
    expect(indexLotSize('RELIANCE', '2025-08-28')).toBeUndefined();
    for (const list of Object.values(lotSizeRules().indices)) for (const e of list) expect(e.source.length).toBeGreaterThan(10);
  });

  it('refuses a malformed file naming the file and the field', () => {
    const parse = (body: string) => () => parseRuleFile(HEAD + body, 'lot-sizes.yaml', LotFileBody);
    expect(parse('indices:\n  NIFTY:\n    - { from: "2025-01-01", lot: 0, source: "NSE circular x" }\n')).toThrow(/lot-sizes\.yaml: indices\.NIFTY\.0\.lot: a lot is a positive number/);
    expect(parse('indices:\n  NIFTY:\n    - { from: "2025-01-01", lot: 75, source: "NSE circular x" }\n    - { from: "2024-01-01", lot: 25, source: "NSE circular y" }\n')).toThrow(/indices\.NIFTY\.1\.from: 2024-01-01 is not after/);
    expect(parse('indices:\n  NIFTY:\n    - { from: "2025-01-01", lot: 75 }\n')).toThrow(/indices\.NIFTY\.0\.source/);
  });
});
