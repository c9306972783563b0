import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../../../src/core/time.js';
import { SQUARE_OFF_REMARKS } from '../../../../src/risk/rules/square-off.js';
import { harness, RELIANCE } from './fixtures.js';

const place = (h: ReturnType<typeof harness>, side: 'BUY' | 'SELL', qty: number, product: 'INTRADAY' | 'CNC', extra: Record<string, unknown> = {}) =>
  h.engine.placeOrder({ instrument: RELIANCE.id, side, qty, orderType: 'MARKET', validity: 'DAY', product, remarks: 'mine', ...extra });

describe('matching engine: the broker intraday square-off', () => {
  it('cancels open INTRADAY orders, closes INTRADAY positions with its own tagged MARKET orders, and leaves CNC alone', () => {
    const h = harness();
    h.tick(RELIANCE.id, 250_000);
    place(h, 'BUY', 10, 'INTRADAY');
    place(h, 'BUY', 5, 'CNC');
    const resting = h.engine.placeOrder({ instrument: RELIANCE.id, side: 'BUY', qty: 3, orderType: 'LIMIT', limitPrice: 240_000, validity: 'DAY', product: 'INTRADAY', remarks: 'rest' });
    h.clock.advanceTo(istDateTime('2026-11-20', '15:20'));
    h.tick(RELIANCE.id, 251_000);
    const placed = h.engine.squareOff('EQUITY');
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({ side: 'SELL', qty: 10, product: 'INTRADAY', remarks: SQUARE_OFF_REMARKS, status: 'FILLED' });
    expect(h.engine.getOrder(resting.orderId)?.extraInfo).toBe('Cancelled by the broker: intraday square-off at 15:20 IST');
    expect(h.engine.account.position(RELIANCE.id, 'INTRADAY')?.netQty).toBe(0);
    expect(h.engine.account.position(RELIANCE.id, 'CNC')?.netQty).toBe(5);
    // Shown in the trade book like any trade.
    expect(h.engine.trades().some((t) => t.remarks === SQUARE_OFF_REMARKS && t.qty === 10)).toBe(true);
  });

  it('refuses INTRADAY orders that open or add after the square-off until the next session, with the rule\'s words', () => {
    const h = harness();
    h.tick(RELIANCE.id, 250_000);
    h.clock.advanceTo(istDateTime('2026-11-20', '15:21'));
    h.engine.squareOff('EQUITY');
    const r = place(h, 'BUY', 1, 'INTRADAY');
    expect(r.rejection?.message).toBe(`INTRADAY orders that open or add to a position in ${RELIANCE.tradingSymbol} are not accepted after the intraday square-off time 15:20 IST`);
    expect(place(h, 'BUY', 1, 'CNC').rejection).toBeUndefined();
    h.engine.expireSession();
    h.clock.advanceTo(istDateTime('2026-11-23', '09:15'));
    h.engine.openSession();
    h.tick(RELIANCE.id, 250_000);
    expect(place(h, 'BUY', 1, 'INTRADAY').rejection).toBeUndefined();
  });

  it('reserves the broker\'s tag: a client order cannot carry it', () => {
    const h = harness();
    h.tick(RELIANCE.id, 250_000);
    expect(() => place(h, 'BUY', 1, 'INTRADAY', { remarks: SQUARE_OFF_REMARKS })).toThrow(/reserved/);
  });
});
