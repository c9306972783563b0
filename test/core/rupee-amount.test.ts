import { describe, expect, it } from 'vitest';
import { PriceError } from '../../src/core/errors.js';
import { parseRupeeAmount, rupeesToPaise } from '../../src/core/rupee-amount.js';

describe('rupee amounts as written by people', () => {
  it('turns plain rupee numbers into exact paise', () => {
    expect(parseRupeeAmount(500000)).toBe(50_000_000);
    expect(parseRupeeAmount(1426.5)).toBe(142_650);
    expect(parseRupeeAmount(1426.55)).toBe(142_655); // 1426.55 * 100 is 142654.99999999997 as a float
    expect(parseRupeeAmount(0.07)).toBe(7);
    expect(parseRupeeAmount(5e5)).toBe(50_000_000);
    expect(parseRupeeAmount(0)).toBe(0);
  });

  it('reads Indian and western digit grouping, a rupee prefix and surrounding spaces', () => {
    expect(parseRupeeAmount('5,00,000')).toBe(50_000_000);
    expect(parseRupeeAmount('500,000')).toBe(50_000_000);
    expect(parseRupeeAmount('1,25,00,000.75')).toBe(1_250_000_075);
    expect(parseRupeeAmount('₹5,00,000')).toBe(50_000_000);
    expect(parseRupeeAmount('Rs. 50,000')).toBe(5_000_000);
    expect(parseRupeeAmount('rs 999.9')).toBe(99_990);
    expect(parseRupeeAmount('INR 1,000')).toBe(100_000);
    expect(parseRupeeAmount('  2500.00  ')).toBe(250_000);
    expect(parseRupeeAmount('Rs. 5,00,000/-')).toBe(50_000_000);
    expect(parseRupeeAmount('5_00_000')).toBe(50_000_000); // YAML 1.2 reads 5_00_000 as text
    expect(parseRupeeAmount('500_000.25')).toBe(50_000_025);
  });

  it('reads lakh and crore without a float step', () => {
    expect(parseRupeeAmount('5 lakh')).toBe(50_000_000);
    expect(parseRupeeAmount('5 lakhs')).toBe(50_000_000);
    expect(parseRupeeAmount('2.5 lac')).toBe(25_000_000);
    expect(parseRupeeAmount('1.25 crore')).toBe(1_250_000_000);
    expect(parseRupeeAmount('₹1Cr')).toBe(1_000_000_000);
    expect(parseRupeeAmount('0.0000001 crore')).toBe(100); // one rupee
    expect(parseRupeeAmount('1.2345678 lakh')).toBe(12_345_678);
  });

  it('keeps the sign (the schema decides whether a negative amount is allowed)', () => {
    expect(parseRupeeAmount(-2500.5)).toBe(-250_050);
    expect(parseRupeeAmount('-5,000')).toBe(-500_000);
  });

  it('refuses fractions of a paisa instead of rounding them', () => {
    for (const v of [1000.005, '1000.005', '0.001', 1e-7, '1.23456789 lakh']) {
      expect(rupeesToPaise(v)).toEqual({ problem: 'expected rupees with at most 2 decimals (whole paise)' });
    }
    // Trailing zeros are not precision: 10.500 is 10.50.
    expect(parseRupeeAmount('10.500')).toBe(1050);
  });

  it('refuses text that is not an amount, naming what and the value', () => {
    expect(() => parseRupeeAmount('abc', 'risk.maxOrderValue')).toThrow(PriceError);
    expect(() => parseRupeeAmount('abc', 'risk.maxOrderValue')).toThrow(
      'risk.maxOrderValue: expected an amount in rupees such as 500000, 1426.50, "5,00,000" or "5 lakh", got "abc"',
    );
    for (const v of ['', '5e5', '1.5.2', '5 thousand', '₹', '--5', '.5', '5/-/-', '/-', true, null, [500], { rupees: 5 }, Number.NaN, Infinity]) {
      expect(rupeesToPaise(v), JSON.stringify(v)).toHaveProperty('problem');
    }
  });

  it('refuses digit groups that are neither Indian nor western (a mistyped figure)', () => {
    for (const v of ['50,00,0000', '5,0,0', '500000,', '1,0000', '5_0_0', '50_00_0000']) {
      expect(rupeesToPaise(v)).toEqual({ problem: 'digit groups are neither Indian (5,00,000) nor western (500,000)' });
    }
  });

  it('refuses a figure that mixes commas and underscores', () => {
    expect(rupeesToPaise('5,00_000')).toEqual({ problem: 'digit groups mix commas and underscores' });
  });

  it('refuses amounts too large to hold every paisa exactly', () => {
    expect(rupeesToPaise(1e13)).toEqual({ problem: 'amount is too large to hold exactly' });
    expect(rupeesToPaise('100000000000000')).toEqual({ problem: 'amount is too large to hold exactly' });
    expect(parseRupeeAmount(9_999_999_999_999.99)).toBe(999_999_999_999_999);
  });
});
