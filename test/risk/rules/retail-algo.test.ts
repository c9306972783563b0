import { describe, expect, it } from 'vitest';
import {
  SegmentOrderWindow,
  algoIdFor,
  algoIdRefusal,
  exchangeSegment,
  parseRetailAlgoRules,
  retailAlgoRules,
  thresholdRefusal,
} from '../../../src/risk/rules/retail-algo.js';

describe('retail-algo rules (config/market-rules/retail-algo.yaml)', () => {
  it('reads the dated threshold, generic algo ids and market protection', () => {
    const r = retailAlgoRules();
    expect(r.lastChecked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.source).toContain('SEBI');
    expect(r.ordersPerSecond).toBe(10);
    expect(r.genericAlgoIds).toEqual({ NSE: '99999', BSE: '9999999999999999' });
    expect(r.marketProtectionPct).toBe(3);
  });

  it('names the file and the field when the data is bad', () => {
    const bad = 'last_checked: "2026-11-26"\nsource: x\norders_per_second_per_segment: 0\ngeneric_algo_ids: { NSE: "1", BSE: "2" }\nmarket_protection_pct: 3\n';
    expect(() => parseRetailAlgoRules(bad, 'rules.yaml')).toThrow(/rules\.yaml: orders_per_second_per_segment/);
  });

  it("gives each exchange its generic algo id unless one is registered there", () => {
    expect(algoIdFor('NSE')).toBe('99999');
    expect(algoIdFor('BSE')).toBe('9999999999999999');
    expect(algoIdFor('NSE', { NSE: '4242' })).toBe('4242');
    expect(algoIdFor('BSE', { NSE: '4242' })).toBe('9999999999999999');
    expect(algoIdRefusal('NSE', '99999')).toBeUndefined();
    expect(algoIdRefusal('NSE', '4242', { NSE: '4242' })).toBeUndefined();
    expect(algoIdRefusal('BSE', '99999')).toBe('algo_id 99999 is not an algo id of BSE: send 9999999999999999 (the generic id of BSE) or an algo id registered with BSE');
  });

  it('names derivatives FNO whichever word the endpoint used', () => {
    expect(exchangeSegment('NSE', 'DERIVATIVE')).toBe('NSE FNO');
    expect(exchangeSegment('NSE', 'FNO')).toBe('NSE FNO');
    expect(exchangeSegment('BSE', 'EQUITY')).toBe('BSE EQUITY');
  });

  it('allows a threshold above 10 only with registered ids on every exchange', () => {
    expect(thresholdRefusal(10, {})).toBeUndefined();
    expect(thresholdRefusal(20, { NSE: '4242' })).toContain('no registered algo id is set for BSE');
    expect(thresholdRefusal(20, { NSE: '4242', BSE: '9999999999999999' })).toContain('for BSE');
    expect(thresholdRefusal(20, { NSE: '4242', BSE: '4343' })).toBeUndefined();
  });
});

describe('SegmentOrderWindow', () => {
  it('admits 10 orders in a rolling second per segment, the 11th only once the first is a second old', () => {
    const w = new SegmentOrderWindow(10);
    for (let i = 0; i < 10; i++) expect(w.admit('NSE FNO', 1000 + i * 10)).toBe(true);
    expect(w.admit('NSE FNO', 1500)).toBe(false);
    expect(w.nextSlot('NSE FNO', 1500)).toBe(2000);
    expect(w.admit('NSE EQUITY', 1500)).toBe(true);
    expect(w.admit('NSE FNO', 1999)).toBe(false);
    expect(w.admit('NSE FNO', 2000)).toBe(true);
    expect(w.admit('NSE FNO', 2001)).toBe(false);
    expect(w.admit('NSE FNO', 2010)).toBe(true);
  });
});
