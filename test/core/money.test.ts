import { describe, expect, it } from 'vitest';
import { PriceError } from '../../src/core/errors.js';
import { Rounding, formatInr, formatRupees, groupIndian, isOnTick, notional, parsePaise, roundToTick, rupeesToTick } from '../../src/core/money.js';

describe('exact money in paise', () => {
  it('parses rupee strings and numbers exactly', () => {
    expect(parsePaise('1426.50')).toBe(142650);
    expect(parsePaise('1426.5')).toBe(142650);
    expect(parsePaise(1426.55)).toBe(142655); // 1426.55 * 100 is 142654.99999999997 in floats
    expect(parsePaise('0.05')).toBe(5);
    expect(parsePaise('-12.3')).toBe(-1230);
    expect(parsePaise('100.000')).toBe(10000);
  });

  it('accepts Indian digit grouping', () => {
    expect(parsePaise('5,82,909')).toBe(58290900);
    expect(parsePaise('1,00,000.25')).toBe(10000025);
  });

  it('refuses sub-paisa amounts and garbage with a PriceError naming the field', () => {
    expect(() => parsePaise('0.0025', 'tick')).toThrow(PriceError);
    expect(() => parsePaise('0.0025', 'tick')).toThrow(/tick: 0.0025 is not a whole number of paise/);
    expect(() => parsePaise('abc', 'limit_price')).toThrow(/limit_price: expected a decimal number, got "abc"/);
    expect(() => parsePaise(Number.NaN)).toThrow(PriceError);
  });

  it('rounds to the tick size in each direction', () => {
    expect(roundToTick(142653, 5)).toBe(142655);
    expect(roundToTick(142652, 5)).toBe(142650);
    expect(roundToTick(142652.5, 5)).toBe(142655); // half away from zero
    expect(roundToTick(142654, 5, Rounding.DOWN)).toBe(142650);
    expect(roundToTick(142651, 5, Rounding.UP)).toBe(142655);
    expect(roundToTick(142650, 5, Rounding.UP)).toBe(142650);
    expect(rupeesToTick(1426.5312, 5)).toBe(142655);
    expect(rupeesToTick(1426.5312, 10, Rounding.DOWN)).toBe(142650);
  });

  it('checks tick alignment and rejects a bad tick', () => {
    expect(isOnTick(142655, 5)).toBe(true);
    expect(isOnTick(142656, 5)).toBe(false);
    expect(() => roundToTick(100, 0)).toThrow(PriceError);
  });

  it('formats paise as fixed two-decimal rupees', () => {
    expect(formatRupees(142650)).toBe('1426.50');
    expect(formatRupees(5)).toBe('0.05');
    expect(formatRupees(-1230)).toBe('-12.30');
  });

  it('formats paise as rupees with lakh and crore grouping', () => {
    expect(formatInr(50_000_000)).toBe('₹5,00,000.00');
    expect(formatInr(5_000_000_000)).toBe('₹5,00,00,000.00');
    expect(formatInr(123_456_789_05)).toBe('₹12,34,56,789.05');
    expect(formatInr(99_999)).toBe('₹999.99');
    expect(formatInr(100_000)).toBe('₹1,000.00');
    expect(formatInr(5)).toBe('₹0.05');
    expect(formatInr(0)).toBe('₹0.00');
    expect(formatInr(-125_000)).toBe('-₹1,250.00');
    expect(formatInr(Number.MAX_SAFE_INTEGER)).toBe('₹9,00,71,99,25,47,409.91');
    expect(groupIndian('1234567')).toBe('12,34,567');
    expect(groupIndian('123')).toBe('123');
  });

  it('computes notional exactly and refuses overflow', () => {
    expect(notional(75, 2345005)).toBe(175875375);
    expect(() => notional(2 ** 40, 2 ** 20)).toThrow(PriceError);
  });
});
