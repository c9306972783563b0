import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { VirtualClock } from '../../src/core/clock.js';
import type { OrderSnapshot } from '../../src/core/events.js';
import { SessionStats } from '../../src/daemon/session-stats.js';
import { pnlLine, StatusDisplay } from '../../src/daemon/status-display.js';

const order = (tag: string, status: OrderSnapshot['status'], reason?: string): OrderSnapshot => ({
  tag, strategyId: 's1', instrument: 'NSE_1', side: 'BUY', qty: 10, orderType: 'MARKET', product: 'INTRADAY', validity: 'DAY', status, filledQty: 0, filledValue: 0, modifications: 0, ...(reason ? { reason } : {}),
});

describe('SessionStats', () => {
  it('counts orders, fills (once per fill id) and marks P&L to the last tick', () => {
    const s = new SessionStats();
    s.observe({ type: 'order', ts: 1, order: order('a', 'PENDING_NEW') });
    s.observe({ type: 'order', ts: 2, order: order('a', 'OPEN') });
    s.observe({ type: 'fill', ts: 3, fillId: 'f1', tag: 'a', strategyId: 's1', instrument: 'NSE_1', side: 'BUY', qty: 10, price: 10_000, product: 'INTRADAY', charges: 50 });
    s.observe({ type: 'fill', ts: 3, fillId: 'f1', tag: 'a', strategyId: 's1', instrument: 'NSE_1', side: 'BUY', qty: 10, price: 10_000, product: 'INTRADAY', charges: 50 });
    s.observe({ type: 'order', ts: 4, order: order('a', 'FILLED') });
    s.observe({ type: 'order', ts: 5, order: order('b', 'REJECTED', 'no margin') });
    s.observe({ type: 'tick', ts: 6, instrument: 'NSE_1', ltp: 10_250 });
    let snap = s.snapshot();
    expect(snap).toMatchObject({ ticks: 1, orders: 2, openOrders: 0, fills: 1, rejected: 1, charges: 50, pnl: 10 * 250 - 50 });
    expect(snap.positions).toEqual([{ instrument: 'NSE_1', netQty: 10, pnl: 2_500 }]);
    s.observe({ type: 'fill', ts: 7, fillId: 'f2', tag: 'c', strategyId: 's1', instrument: 'NSE_1', side: 'SELL', qty: 10, price: 10_100, product: 'INTRADAY' });
    snap = s.snapshot();
    expect(snap.positions).toEqual([]);
    expect(snap.pnl).toBe(1_000 - 50);
  });
});

describe('SessionStats across days', () => {
  it('drops finished orders one daily reconcile after they finished, keeps working ones and cumulative counts', () => {
    const s = new SessionStats();
    const fill = (fillId: string) => s.observe({ type: 'fill', ts: 3, fillId, tag: 'a', strategyId: 's1', instrument: 'NSE_1', side: 'BUY', qty: 1, price: 100, product: 'INTRADAY' });
    s.observe({ type: 'order', ts: 1, order: order('a', 'FILLED') });
    s.observe({ type: 'order', ts: 1, order: order('b', 'REJECTED', 'no margin') });
    s.observe({ type: 'order', ts: 1, order: order('b', 'REJECTED', 'no margin') });
    s.observe({ type: 'order', ts: 1, order: order('w', 'OPEN') });
    fill('f1');
    // Day 1's reconcile: a and b only start retiring (a restart the same evening still sees them).
    expect(s.forgetFinished()).toBe(0);
    s.observe({ type: 'order', ts: 2, order: order('c', 'CANCELLED') });
    fill('f1'); // a duplicate from the cycle before is still recognised
    expect(s.forgetFinished()).toBe(2);
    expect([...s.orders().keys()].sort()).toEqual(['c', 'w']);
    expect(s.snapshot()).toMatchObject({ orders: 4, openOrders: 1, rejected: 1, fills: 1 });
    expect(s.forgetFinished()).toBe(1);
    expect([...s.orders().keys()]).toEqual(['w']);
  });
});

describe('StatusDisplay', () => {
  it('prints fills and rejections as lines, and a summary at the end, never ticks', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += String(c)));
    const stats = new SessionStats();
    const d = new StatusDisplay({ stats, clock: new VirtualClock(1_700_000_000_000), label: 'paper x60', out, intervalMs: 1000, nameOf: (i) => (i === 'NSE_1' ? 'RELIANCE' : i) });
    const events = [
      { type: 'tick' as const, ts: 1_700_000_000_000, instrument: 'NSE_1', ltp: 100 },
      { type: 'fill' as const, ts: 1_700_000_000_000, fillId: 'f', tag: 'a', strategyId: 'sma-1', instrument: 'NSE_1', side: 'BUY' as const, qty: 5, price: 245_670, product: 'INTRADAY' as const },
      { type: 'order' as const, ts: 1_700_000_000_000, order: order('b', 'REJECTED', 'insufficient funds') },
    ];
    for (const e of events) {
      stats.observe(e);
      d.observe(e);
    }
    d.stop();
    expect(text).toContain('FILL    sma-1          BUY      5 RELIANCE @ ₹2,456.70');
    expect(text).toContain('REJECT  s1             BUY 10 RELIANCE: insufficient funds');
    expect(text).toMatch(/session summary: 1 ticks, 1 orders \(1 rejected\), 1 fills, 0 denied, 0 alerts/);
    expect(text).toContain('open positions: RELIANCE +5');
    expect(text.split('\n').filter((l) => l.includes('tick')).length).toBe(1);
  });

  it('says the summary P&L is before charges when the fills came without theirs, and nets the account charges read at stop', () => {
    const fill = (id: string, side: 'BUY' | 'SELL', price: number, charges?: number) => ({ type: 'fill' as const, ts: 1, fillId: id, tag: id, strategyId: 's1', instrument: 'NSE_1', side, qty: 10, price, product: 'INTRADAY' as const, ...(charges !== undefined ? { charges } : {}) });
    const stats = new SessionStats();
    expect(pnlLine(stats.snapshot())).toBe('P&L ₹0.00');
    stats.observe(fill('f1', 'BUY', 79_410));
    stats.observe(fill('f2', 'SELL', 79_460));
    expect(pnlLine(stats.snapshot())).toBe("P&L ₹5.00 before charges (the broker gave no charges with its fills; `tarang account` shows the day's charges)");
    expect(pnlLine(stats.snapshot(), 95)).toBe('P&L ₹5.00 before charges, ₹4.05 after the ₹0.95 of brokerage and charges the account booked today');
    const charged = new SessionStats();
    charged.observe(fill('f1', 'BUY', 79_410, 40));
    charged.observe(fill('f2', 'SELL', 79_460, 55));
    expect(pnlLine(charged.snapshot(), 1_000)).toBe('P&L ₹4.05 (after ₹0.95 charges)');
  });

  it('caps event lines per second and says how many it held back', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += String(c)));
    const d = new StatusDisplay({ stats: new SessionStats(), clock: new VirtualClock(0), label: 'x', out, intervalMs: 0, maxEventLinesPerSecond: 3 });
    for (let i = 0; i < 10; i++) d.observe({ type: 'alert', ts: 0, level: 'warn', code: 'X', message: `m${i}` });
    expect(text.trim().split('\n')).toHaveLength(3);
  });

  it('renders a status line with the clock time, tick rate and P&L', () => {
    const d = new StatusDisplay({ stats: new SessionStats(), clock: new VirtualClock(Date.UTC(2026, 10, 20, 4, 0, 0)), label: 'paper x60', out: new PassThrough(), intervalMs: 1000, extra: () => 'ws ok' });
    const line = d.statusLine(new SessionStats().snapshot(), 1234.4);
    expect(line).toBe('[paper x60] 2026-11-20 09:30:00 IST | ticks 0 (1,234/s) | orders 0 open 0 | fills 0 | denied 0 | pos 0 | P&L ₹0.00 | ws ok');
  });
});
