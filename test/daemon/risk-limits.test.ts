import { describe, expect, it } from 'vitest';
import { parseRiskConfig } from '../../src/risk/config.js';
import { describeRiskLimits, implausibleLimits } from '../../src/daemon/risk-limits.js';

const LAKH = 1_00_000_00; // Rs 1 lakh in paise

describe('risk limits at daemon start', () => {
  it('names limits above Rs 10 crore when the account is unknown, and leaves plausible ones alone', () => {
    const risk = parseRiskConfig({ maxOrderValue: 20_00_00_000_00, maxPositionValue: 10_00_00_000_00, maxDailyLoss: 11_00_00_000_00 });
    const w = implausibleLimits(risk, undefined);
    expect(w.map((x) => [x.key, x.threshold])).toEqual([
      ['maxOrderValue', 10_00_00_000_00],
      ['maxDailyLoss', 10_00_00_000_00],
    ]);
    expect(w[0]!.message).toMatch(/^risk\.maxOrderValue \(max order value\) ₹20,00,00,000\.00 is above ₹10,00,00,000\.00: this is a heuristic warning, not a refusal/);
    expect(implausibleLimits(parseRiskConfig({ maxOrderValue: 5 * LAKH, maxDailyLoss: 50_000_00 }), 10 * LAKH)).toEqual([]);
    expect(implausibleLimits(parseRiskConfig({}), 10 * LAKH)).toEqual([]);
  });

  it('measures order and position limits against ten times the account, the daily loss against the account', () => {
    const risk = parseRiskConfig({ maxOrderValue: 100 * LAKH, maxPositionValue: 101 * LAKH, maxDailyLoss: 10 * LAKH + 1 });
    const w = implausibleLimits(risk, 10 * LAKH);
    expect(w.map((x) => x.key)).toEqual(['maxPositionValue', 'maxDailyLoss']);
    expect(w[0]!.threshold).toBe(100 * LAKH);
    expect(w[1]!.message).toContain("₹10,00,000.01 is more than the account's ₹10,00,000.00");
  });

  it('says which checks are off and a tripped kill switch', () => {
    const risk = parseRiskConfig({ checks: ['tradingState', 'instrumentHold', 'instrument', 'lotSize', 'freezeQty', 'tickSize', 'circuit', 'priceBand', 'smartLegBounds', 'intradayCutoff', 'modificationCap', 'maxPosition', 'maxOpenOrders', 'orderRate', 'funds'], maxModifications: 25, replaceAt: 21 });
    const { text, fields } = describeRiskLimits({ risk, tradingState: 'halted', killSwitch: true });
    expect(text).toContain('checks OFF: maxOrderValue, dailyLoss');
    expect(text).toContain('kill switch TRIPPED (halted until resumed), trading halted');
    expect(text).toContain('cancel-and-replace from the 21st');
    expect(text).not.toContain('paper capital');
    expect(fields).toMatchObject({ maxOrderValue: 'off', killSwitch: 'tripped', checksOff: ['maxOrderValue', 'dailyLoss'] });
  });
});
