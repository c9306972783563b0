import { describe, expect, it } from 'vitest';
import { parseRuleFile } from '../../../src/risk/rules/rule-file.js';
import { ExpiryFileBody, indexExpiryEras, stockExpiryEras } from '../../../src/risk/rules/expiry-weekdays.js';
import { inForce } from '../../../src/risk/rules/dated.js';

const HEAD = 'last_checked: "2026-11-26"\nsource: "NSE circulars, see each entry"\n';

describe('expiry weekdays by contract expiry (config/market-rules/expiry-weekdays.yaml)', () => {
  const TUE = 2;
  const THU = 4;
  it('has NSE on Thursday until August 2025 and Tuesday since, BSE the other way round', () => {
    const nifty = indexExpiryEras('NIFTY')!;
    expect(inForce(nifty, '2025-08-28')!.value).toEqual({ weekly: THU, monthly: THU });
    expect(inForce(nifty, '2025-09-02')!.value).toEqual({ weekly: TUE, monthly: TUE });
    const sensex = indexExpiryEras('SENSEX')!;
    expect(inForce(sensex, '2025-08-26')!.value).toEqual({ weekly: TUE, monthly: TUE });
    expect(inForce(sensex, '2025-09-04')!.value).toEqual({ weekly: THU, monthly: THU });
    // BANKNIFTY: monthly only since SEBI's 2024 measures, last Thursday in 2025 until August.
    expect(inForce(indexExpiryEras('BANKNIFTY')!, '2025-03-27')!.value).toEqual({ weekly: null, monthly: THU });
    expect(inForce(stockExpiryEras(), '2025-09-30')!.value).toEqual({ weekly: null, monthly: TUE });
  });

  it('refuses an unknown weekday naming the file and the field', () => {
    const body = 'indices:\n  NIFTY:\n    - { from: "2025-09-01", weekly: TUES, monthly: TUE, source: "NSE circular x" }\nstocks:\n  - { from: "2000-01-01", weekly: none, monthly: THU, source: "NSE circular y" }\n';
    expect(() => parseRuleFile(HEAD + body, 'expiry-weekdays.yaml', ExpiryFileBody)).toThrow(/expiry-weekdays\.yaml: indices\.NIFTY\.0\.weekly: expected MON, TUE, WED, THU, FRI or none/);
  });
});
