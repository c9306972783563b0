import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import type { Instrument } from '../../../src/core/instruments.js';
import { istDateTime } from '../../../src/core/time.js';
import {
  PRESET_NAMES,
  applyRate,
  autoPresetName,
  chargeModel,
  chargeTotal,
  computeCharges,
  loadChargePreset,
  parseChargePreset,
  parsePercent,
} from '../../../backtest/charges/index.js';

const at = (d: string): number => istDateTime(d, '10:00');

describe('exact rates', () => {
  it('reads a percent string exactly and rounds half up to the paisa', () => {
    const r = parsePercent('0.00297', 'test');
    expect(r).toMatchObject({ num: 297n, den: 10_000_000n });
    // 10,000,000 paise x 0.00297% = 297 paise exactly; 10,100,000 -> 299.97 -> 300.
    expect(applyRate(10_000_000, r)).toBe(297);
    expect(applyRate(10_100_000, r)).toBe(300);
    // 0.5 paisa rounds up, 0.4999 down.
    expect(applyRate(5, parsePercent('10', 't'))).toBe(1);
    expect(applyRate(4_999, parsePercent('0.01', 't'))).toBe(0);
  });

  it('agrees with BigInt arithmetic beyond the range where doubles are exact', () => {
    const r = parsePercent('0.03503', 't');
    for (const amount of [1, 999, 753_750, 2 ** 40 + 7, 2 ** 52 + 1]) {
      const p = BigInt(amount) * 3503n;
      const den = 10_000_000n;
      const expected = Number(p / den + (2n * (p % den) >= den ? 1n : 0n));
      expect(applyRate(amount, r), String(amount)).toBe(expected);
    }
  });

  it('rejects a rate that is not a decimal string', () => {
    expect(() => parsePercent('1e-5', 'cfg x')).toThrow(/cfg x: expected a percentage/);
  });
});

describe('charge presets', () => {
  it('every preset file loads, validates and says when it was last checked', () => {
    for (const n of PRESET_NAMES) {
      const p = loadChargePreset(n);
      expect(p.name).toBe(n);
      expect(p.lastChecked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.periods.length).toBeGreaterThan(0);
    }
  });

  it('equity intraday round trip, computed by hand', () => {
    const p = loadChargePreset('equity-intraday');
    // Buy 100 @ 1000.00: turnover 10,000,000 paise.
    // brokerage min(0.05% = 5000, 2000) = 2000; STT 0; exchange 297; SEBI 10; stamp 0.003% = 300;
    // GST 18% x (2000 + 297 + 10) = 415.26 -> 415.
    const buy = computeCharges(p, { side: 'BUY', qty: 100, price: 100_000, ts: at('2025-01-15') });
    expect(buy).toEqual({ brokerage: 2000, stt: 0, exchangeCharges: 297, stampDuty: 300, sebiTurnoverCharges: 10, gst: 415, totalCharges: 1022 });
    // Sell 100 @ 1010.00: turnover 10,100,000. STT 0.025% = 2525; exchange 299.97 -> 300; SEBI 10.1 -> 10;
    // stamp 0 (buys only); GST 18% x 2310 = 415.8 -> 416.
    const sell = computeCharges(p, { side: 'SELL', qty: 100, price: 101_000, ts: at('2025-01-15') });
    expect(sell).toEqual({ brokerage: 2000, stt: 2525, exchangeCharges: 300, stampDuty: 0, sebiTurnoverCharges: 10, gst: 416, totalCharges: 3251 });
    expect(chargeTotal(buy) + chargeTotal(sell)).toBe(8273);
  });

  it('equity delivery charges STT on both sides and stamp duty on the buy', () => {
    const p = loadChargePreset('equity-delivery');
    // Buy 10 @ 250.00: turnover 250,000 paise; brokerage 0.05% = 125; STT 0.1% = 250;
    // exchange 7.425 -> 7; SEBI 0.25 -> 0; stamp 0.015% = 37.5 -> 38; GST 18% x 132 = 23.76 -> 24.
    const c = computeCharges(p, { side: 'BUY', qty: 10, price: 25_000, ts: at('2025-03-03') });
    expect(c).toEqual({ brokerage: 125, stt: 250, exchangeCharges: 7, stampDuty: 38, sebiTurnoverCharges: 0, gst: 24, totalCharges: 319 });
  });

  it('options use the rates in force on the fill date (STT 0.1% then 0.15% from 2026-04-01)', () => {
    const p = loadChargePreset('options');
    // Sell 75 @ 100.50: premium turnover 753,750 paise; flat brokerage 2000; STT 0.1% = 753.75 -> 754;
    // exchange 0.03503% = 264.04 -> 264; SEBI 0.75 -> 1; GST 18% x 2265 = 407.7 -> 408.
    const before = computeCharges(p, { side: 'SELL', qty: 75, price: 10_050, ts: at('2025-01-15') });
    expect(before).toEqual({ brokerage: 2000, stt: 754, exchangeCharges: 264, stampDuty: 0, sebiTurnoverCharges: 1, gst: 408, totalCharges: 1427 });
    // From 2026-04-01: STT 0.15% = 1130.625 -> 1131.
    const after = computeCharges(p, { side: 'SELL', qty: 75, price: 10_050, ts: at('2026-05-04') });
    expect(after.stt).toBe(1131);
  });

  it('futures charge STT on sells only', () => {
    const p = loadChargePreset('futures');
    // Sell 25 @ 22,000.00 on 2025-02-03: turnover 55,000,000 paise; STT 0.02% = 11,000;
    // exchange 0.00173% = 951.5 -> 952; SEBI 55; GST 18% x (2000 + 952 + 55) = 541.26 -> 541.
    const c = computeCharges(p, { side: 'SELL', qty: 25, price: 2_200_000, ts: at('2025-02-03') });
    expect(c).toEqual({ brokerage: 2000, stt: 11_000, exchangeCharges: 952, stampDuty: 0, sebiTurnoverCharges: 55, gst: 541, totalCharges: 12_548 });
  });

  it('auto picks the preset by instrument kind and product', () => {
    const eq = { kind: 'EQUITY' } as Instrument;
    expect(autoPresetName(eq, 'CNC')).toBe('equity-delivery');
    expect(autoPresetName(eq, 'INTRADAY')).toBe('equity-intraday');
    expect(autoPresetName({ kind: 'OPTIDX' } as Instrument, 'MARGIN')).toBe('options');
    expect(autoPresetName({ kind: 'FUTSTK' } as Instrument, 'MARGIN')).toBe('futures');
    const none = chargeModel('none').calculator(() => 0)({ instrument: eq, side: 'BUY', qty: 1, price: 100, product: 'CNC' });
    expect(chargeTotal(none)).toBe(0);
  });

  it('names the key of an invalid preset and an unknown preset name', () => {
    const bad = `name: x\ndescription: y\nlast_checked: soon\nchecked_against: z\nbrokerage: { flat_rupees: "20" }\nperiods: []\n`;
    expect(() => parseChargePreset(bad, 'my.yaml')).toThrow(ConfigError);
    expect(() => parseChargePreset(bad, 'my.yaml')).toThrow(/my.yaml: invalid charge preset: last_checked: .*periods/);
    expect(() => chargeModel('equity')).toThrow(/unknown preset; use none, auto/);
  });
});
