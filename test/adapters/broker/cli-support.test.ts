import { describe, expect, it, vi } from 'vitest';
import { keyValues, limited, rupeeAmount, rupees, table } from '../../../src/adapters/broker/cli-support.js';

describe('cli output helpers', () => {
  it('shows paise and rupee amounts as rupees with Indian grouping', () => {
    expect(rupees(100000000)).toBe('₹10,00,000.00');
    expect(rupees(-42138)).toBe('-₹421.38');
    expect(rupees(undefined)).toBe('');
    expect(rupeeAmount(1000000)).toBe('₹10,00,000.00');
    expect(rupeeAmount(1426.55)).toBe('₹1,426.55');
  });

  it('right-aligns rupee columns in a table and a key/value listing', () => {
    const t = table([{ code: 'A', ltp: rupees(142650) }, { code: 'B', ltp: rupees(-5) }]);
    expect(t.split('\n')[2]).toBe('A     ₹1,426.50');
    expect(t.split('\n')[3]).toBe('B        -₹0.05');
    expect(keyValues({ opening: '₹10,00,000.00', added: '₹0.00' })).toBe('opening  ₹10,00,000.00\nadded            ₹0.00\n');
  });

  it('keeps the first --limit rows and says how many were left out', () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(limited([1, 2, 3, 4], 2, 'contracts')).toEqual([1, 2]);
      expect(err).toHaveBeenCalledWith('showing the first 2 of 4 contracts (--limit)\n');
      expect(limited([1, 2], 5, 'contracts')).toEqual([1, 2]);
    } finally {
      err.mockRestore();
    }
  });
});
