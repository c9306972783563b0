import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../../src/core/time.js';
import { IntradayExitAtInput, intradayExitTimes, opensOrAdds, squareOffRuleFile, squareOffTimes, squareOffWithin } from '../../../src/risk/rules/square-off.js';

describe('square-off rule', () => {
  it('reads its dated data: equity 15:20, F&O 15:25, with when and where checked', () => {
    const f = squareOffRuleFile();
    expect(f.segments.EQUITY).toBe(15 * 60 + 20);
    expect(f.segments.FNO).toBe(15 * 60 + 25);
    expect(f.lastChecked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(f.source.length).toBeGreaterThan(10);
  });

  it('tells opening or adding orders from reducing ones (a flip opens)', () => {
    expect(opensOrAdds('BUY', 10, 0)).toBe(true);
    expect(opensOrAdds('BUY', 10, 5)).toBe(true);
    expect(opensOrAdds('BUY', 10, -10)).toBe(false);
    expect(opensOrAdds('BUY', 11, -10)).toBe(true);
    expect(opensOrAdds('SELL', 4, 5)).toBe(false);
    expect(opensOrAdds('SELL', 1, 0)).toBe(true);
  });

  it('squares off inside a shorter session as long before its close as 15:20 is before 15:30', () => {
    const open = istDateTime('2024-11-01', '18:00');
    const close = istDateTime('2024-11-01', '19:00');
    expect(squareOffWithin(15 * 60 + 20, open, close)).toBe(close - 10 * 60_000);
    const day = istDateTime('2024-11-04', '09:15');
    expect(squareOffWithin(15 * 60 + 20, day, istDateTime('2024-11-04', '15:30'))).toBe(istDateTime('2024-11-04', '15:20'));
  });

  it('the engine exit defaults to 5 minutes before each square-off, and may not come after it', () => {
    const broker = squareOffTimes();
    expect(intradayExitTimes(undefined, broker)).toMatchObject({ EQUITY: 15 * 60 + 15, FNO: 15 * 60 + 20 });
    expect(intradayExitTimes(IntradayExitAtInput.parse('off'), broker)).toBeUndefined();
    expect(() => intradayExitTimes(IntradayExitAtInput.parse('15:22'), broker)).toThrow(/after the broker's square-off at 15:20/);
  });
});
