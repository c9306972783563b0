/**
 * The broker's intraday square-off at the simulator, over HTTP (src/risk/rules/square-off.ts): at
 * 15:20 IST the open INTRADAY orders are cancelled and the INTRADAY position is closed by a MARKET
 * order the broker tags itself, both visible in the order and trade books; CNC is carried; after
 * it, an INTRADAY order that opens a position is refused with the rule's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { istDateTime } from '../../../../src/core/time.js';
import { intradayCutoffMessage, SQUARE_OFF_REMARKS, squareOffCancelReason } from '../../../../src/risk/rules/square-off.js';
import { marketOrderBody, startHarness, type Harness } from './sim-harness.js';

interface Env<T> {
  status: string;
  data: T;
  message?: string;
}
type Row = Record<string, unknown>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('intraday square-off at the simulator', () => {
  it('cancels open INTRADAY orders and closes INTRADAY positions at 15:20 with its own tagged MARKET order; CNC is carried', async () => {
    const buy = await h.call<Env<{ order_id: string; order_status: string }>>('POST', '/order', { body: { ...marketOrderBody('mis-buy'), qty: 3 } });
    expect(buy.status).toBe(200);
    expect((await h.call('POST', '/order', { body: { ...marketOrderBody('cnc-buy'), product: 'CNC' } })).status).toBe(200);
    const q = await h.call<Env<Record<string, { live_price: number }>>>('GET', '/market/quotes/ltp?scrip-codes=NSE_2885');
    const low = Math.round(q.body.data['NSE_2885']!.live_price * 0.95 * 10) / 10;
    const resting = await h.call<Env<{ order_id: string }>>('POST', '/order', { body: { ...marketOrderBody('mis-resting'), order_type: 'LIMIT', limit_price: low } });
    expect(resting.status).toBe(200);

    h.clock.advanceTo(istDateTime('2026-11-20', '15:21'));
    const book = (await h.call<Env<Row[]>>('GET', '/order-book')).body.data;
    const sq = book.filter((o) => o['remarks'] === SQUARE_OFF_REMARKS);
    expect(sq).toHaveLength(1);
    expect(sq[0]).toMatchObject({ txn_type: 'SELL', requested_qty: 3, traded_qty: 3, product: 'INTRADAY', security_id: '2885' });
    const rest = book.find((o) => o['id'] === resting.body.data.order_id)!;
    expect(rest['status']).toMatch(/CANCEL/i);
    expect(JSON.stringify(rest)).toContain(squareOffCancelReason(20 + 15 * 60));
    const trades = (await h.call<Env<Row[]>>('GET', '/trade-book?segment=EQUITY')).body.data;
    expect(trades.some((t) => t['remarks'] === SQUARE_OFF_REMARKS && t['txn_type'] === 'SELL')).toBe(true);
    const positions = (await h.call<Env<Row[]>>('GET', '/portfolio/positions?segment=equity')).body.data;
    expect(positions.find((p) => p['product'] === 'INTRADAY')?.['net_qty']).toBe(0);
    expect(positions.find((p) => p['product'] === 'CNC')?.['net_qty']).toBe(1);
  });

  it('refuses an INTRADAY order that opens a position after the square-off, with the rule\'s words', async () => {
    const late = await h.call<Env<unknown>>('POST', '/order', { body: marketOrderBody('mis-late') });
    expect(late.status).toBe(400);
    const reliance = h.sim.venue.instrument('NSE_2885')!;
    expect(late.body.message).toContain(intradayCutoffMessage(reliance, 15 * 60 + 20));
    // CNC is not squared off and still trades.
    expect((await h.call('POST', '/order', { body: { ...marketOrderBody('cnc-late'), product: 'CNC' } })).status).toBe(200);
  });
});
