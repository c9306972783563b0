import { describe, expect, it } from 'vitest';
import { statusText } from '../../src/cli/status-text.js';

const answer = {
  mode: 'paper',
  daemon: 'running',
  health: 'ok',
  tradingState: 'active',
  reconciled: true,
  clock: '2026-11-20T10:00:00.000+05:30',
  ticks: 1200,
  orders: 3,
  openOrders: 1,
  fills: 2,
  denials: 0,
  pnlPaise: 3600,
  positions: [{ instrument: 'NSE_2885', symbol: 'RELIANCE', netQty: 10, pnl: -42138 }],
  connections: { market: 'open' },
  engine: { tradingState: 'active', killSwitch: false, venue: 'broker', strategies: [{ id: 'sma-rel', paused: false, pnl: 100000000 }], realizedPnl: 0, unrealizedPnl: 3600, dailyPnl: 3600, availableFunds: 100000000 },
};

describe('ctl status text', () => {
  it('shows money in rupees with Indian grouping and symbols beside scrip codes', () => {
    const text = statusText(answer);
    expect(text).toMatch(/^ {2}P&L +₹36\.00$/m);
    expect(text).toMatch(/^ {2}available funds +₹10,00,000\.00$/m);
    expect(text).toMatch(/^ {2}RELIANCE +NSE_2885 +10 +-₹421\.38$/m);
    expect(text).toMatch(/^ {2}sma-rel +running +₹10,00,000\.00$/m);
    expect(text).not.toContain('pnlPaise');
    expect(text).not.toContain('3600');
  });

  it('leaves the symbol blank, not wrong, when the daemon does not know the instrument', () => {
    const text = statusText({ ...answer, positions: [{ instrument: 'NSE_9999', symbol: null, netQty: -5, pnl: 0 }] });
    expect(text).toMatch(/^ {2} +NSE_9999 +-5 +₹0\.00$/m);
  });
});
