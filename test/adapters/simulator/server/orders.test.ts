import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './sim-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h?.close());

interface Env<T = Record<string, unknown>> {
  status: string;
  data: T;
  message?: string;
  error_code?: string;
  error_type?: string;
}

const RELIANCE = { exchange: 'NSE', segment: 'EQUITY', security_id: '2885' };

async function ltp(code = 'NSE_2885'): Promise<number> {
  const r = await h.call<Env<Record<string, { live_price: number }>>>('GET', `/market/quotes/ltp?scrip-codes=${code}`);
  return r.body.data[code]!.live_price;
}

function order(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    txn_type: 'BUY',
    ...RELIANCE,
    qty: 1,
    order_type: 'LIMIT',
    validity: 'DAY',
    product: 'CNC',
    is_amo: false,
    algo_id: '99999',
    ...extra,
  };
}

describe('orders (spec 4.6)', () => {
  it('places a resting LIMIT order as O-PENDING and shows it in the order book with its remarks', async () => {
    const price = await ltp();
    const low = Math.round(price * 0.94 * 10) / 10;
    const r = await h.call<Env<{ order_id: string; order_status: string }>>('POST', '/order', { body: order({ limit_price: low, remarks: 'tag-resting-1' }) });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    expect(r.body.data.order_status).toBe('O-PENDING');
    expect(r.body.data.order_id).toMatch(/^[A-Z]+-\d+$/);
    const book = await h.call<Env<Record<string, unknown>[]>>('GET', '/order-book');
    const rec = book.body.data.find((o) => o['id'] === r.body.data.order_id);
    expect(rec).toMatchObject({ status: 'O-PENDING', remarks: 'tag-resting-1', requested_qty: 1, traded_qty: 0, txn_type: 'BUY', security_id: '2885' });
  });

  it('looks one order up by JSON body on GET and by query', async () => {
    const price = await ltp();
    const placed = await h.call<Env<{ order_id: string }>>('POST', '/order', { body: order({ limit_price: Math.round(price * 0.94), remarks: 'lookup' }) });
    const id = placed.body.data.order_id;
    const byBody = await h.call<Env>('GET', '/order', { body: { order_id: id, segment: 'EQUITY' } });
    expect(byBody.status).toBe(200);
    expect(byBody.body.data).toMatchObject({ id, remarks: 'lookup' });
    const byQuery = await h.call<Env>('GET', `/order?order_id=${id}&segment=EQUITY`);
    expect(byQuery.body.data).toMatchObject({ id, remarks: 'lookup' });
    const missing = await h.call<Env>('GET', '/order?order_id=EQ-1&segment=EQUITY');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', error_code: 'NotFoundException', error_type: 'NotFoundException' });
  });

  it('fills a MARKET order at once and reports it in trades and the trade book', async () => {
    const r = await h.call<Env<{ order_id: string; order_status: string }>>('POST', '/order', {
      body: order({ order_type: 'MARKET', qty: 3, remarks: 'mkt-1' }),
    });
    expect(r.status).toBe(200);
    const id = r.body.data.order_id;
    expect(r.body.data.order_status).toBe('SUCCESS');
    const trades = await h.call<Env<Record<string, unknown>[]>>('GET', `/trades/${id}`);
    expect(trades.body.data.reduce((s, t) => s + Number(t['quantity']), 0)).toBe(3);
    const book = await h.call<Env<Record<string, unknown>[]>>('GET', '/trade-book?segment=EQUITY');
    const mine = book.body.data.filter((t) => t['order_id'] === id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ remarks: 'mkt-1', scrip_code: 'NSE_2885' });
    expect(mine[0]!['trade_serial_no']).toBeTypeOf('number');
    const rec = await h.call<Env>('GET', `/order?order_id=${id}&segment=EQUITY`);
    // Recorded as LIMIT at its protection price, as the live service does (wire-gaps).
    expect(rec.body.data).toMatchObject({ status: 'SUCCESS', order_type: 'LIMIT', traded_qty: 3 });
  });

  it('modifies an order 25 times and rejects a 26th modification', async () => {
    const price = await ltp();
    const base = Math.round(price * 0.92);
    const placed = await h.call<Env<{ order_id: string }>>('POST', '/order', { body: order({ limit_price: base }) });
    const id = placed.body.data.order_id;
    for (let i = 1; i <= 25; i++) {
      const m = await h.call<Env<{ order_status: string }>>('POST', '/order/modify', { body: { order_id: id, segment: 'EQUITY', qty: 1 + (i % 3), limit_price: base - i } });
      expect(m.status, `modification ${i}: ${m.text}`).toBe(200);
      expect(m.body.data.order_status).toBe('MODIFIED');
    }
    const m26 = await h.call<Env>('POST', '/order/modify', { body: { order_id: id, segment: 'EQUITY', limit_price: base - 30 } });
    expect(m26.status).toBe(400);
    expect(m26.body).toMatchObject({ status: 'error', error_code: 'OrderException', error_type: 'OrderException' });
    expect(m26.body.message).toMatch(/25/);
  });

  it('cancels a working order and refuses to cancel it twice', async () => {
    const price = await ltp();
    const placed = await h.call<Env<{ order_id: string }>>('POST', '/order', { body: order({ limit_price: Math.round(price * 0.93) }) });
    const id = placed.body.data.order_id;
    const c = await h.call<Env<{ order_status: string }>>('POST', '/order/cancel', { body: { order_id: id, segment: 'EQUITY' } });
    expect(c.status).toBe(200);
    expect(c.body.data.order_status).toBe('CANCELLED');
    const again = await h.call<Env>('POST', '/order/cancel', { body: { order_id: id, segment: 'EQUITY' } });
    expect(again.status).toBe(400);
    expect(again.body.error_type).toBe('OrderException');
  });

  it('names the field of bad input: a missing qty, a fractional qty, an unknown security_id, a LIMIT without price', async () => {
    const { qty: _q, ...noQty } = order({ limit_price: 100 });
    const a = await h.call<Env>('POST', '/order', { body: noQty });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ status: 'error', error_code: 'InputException', error_type: 'InputException' });
    expect(a.body.message).toMatch(/^qty: is required/);
    const b = await h.call<Env>('POST', '/order', { body: order({ qty: 1.5, limit_price: 100 }) });
    expect(b.body.message).toMatch(/^qty:/);
    const c = await h.call<Env>('POST', '/order', { body: order({ security_id: '999999999', limit_price: 100 }) });
    expect(c.status).toBe(400);
    expect(c.body.message).toMatch(/^security_id: 999999999/);
    const d = await h.call<Env>('POST', '/order', { body: order() });
    expect(d.body.message).toMatch(/^limit_price: is required/);
    const e = await h.call<Env>('POST', '/order', { body: order({ limit_price: 100, colour: 'red' }) });
    expect(e.body.message).toMatch(/unknown field\(s\) colour/);
    const f = await h.call<Env>('POST', '/order/modify', { body: { order_id: 'x', segment: 'EQUITY', remarks: 'new' } });
    expect(f.body.message).toMatch(/^remarks: cannot be changed/);
  });

  it('truncates remarks at 100 characters and refuses the reserved value', async () => {
    const price = await ltp();
    const long = 'r'.repeat(130);
    const placed = await h.call<Env<{ order_id: string }>>('POST', '/order', { body: order({ limit_price: Math.round(price * 0.92), remarks: long }) });
    const rec = await h.call<Env<{ remarks: string }>>('GET', `/order?order_id=${placed.body.data.order_id}`);
    expect(rec.body.data.remarks).toBe('r'.repeat(100));
    const reserved = await h.call<Env>('POST', '/order', { body: order({ limit_price: Math.round(price * 0.92), remarks: 'TV-TERMINAL' }) });
    expect(reserved.status).toBe(400);
    expect(reserved.body.message).toMatch(/remarks/);
  });
});

describe('smart orders (spec 3.5, 4.7)', () => {
  it('rejects a stop-loss leg on the wrong side of a TRIGGER entry, naming the bound', async () => {
    const price = await ltp();
    const entry = Math.round(price * 1.02);
    const r = await h.call<Env>('POST', '/smart/order', {
      body: {
        txn_type: 'BUY',
        ...RELIANCE,
        product: 'CNC',
        order_type: 'TRIGGER',
        validity: 'DAY',
        qty: 1,
        algo_id: '99999',
        trigger_price: entry,
        limit_price: 1,
        sl_trigger_price: entry + 10,
        tgt_trigger_price: entry + 50,
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('error');
    expect(r.body.message).toMatch(/SL trigger price should be less than/);
    expect(r.body.message).toContain(entry.toFixed(2));
  });

  it('places a LIMIT smart order with both legs and answers order_data with the GTT children', async () => {
    const price = await ltp();
    const entry = Math.round(price * 0.94);
    const r = await h.call<Env<{ order_data: Record<string, unknown>[] }>>('POST', '/smart/order', {
      body: {
        txn_type: 'BUY',
        ...RELIANCE,
        product: 'CNC',
        order_type: 'LIMIT',
        validity: 'DAY',
        qty: 1,
        algo_id: '99999',
        limit_price: entry,
        sl_trigger_price: entry - 20,
        tgt_trigger_price: entry + 40,
        remarks: 'smart-1',
        is_tsl: true,
        tsl_step_size: 1,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.order_data).toHaveLength(2);
    for (const d of r.body.data.order_data) {
      expect(d['order_status']).toBe('CREATED');
      expect((d['child_order_details'] as { order_id: string }).order_id).toMatch(/^GTT-/);
    }
    const parent = String(r.body.data.order_data[0]!['order_id']);
    // Trailing is announced, not enabled: is_tsl is recorded and ignored by default (spec 3.4).
    const smartBook = await h.call<Env<{ order_id: string; is_tsl: boolean; trailing: boolean; remarks: string }[]>>('GET', '/smart/order-book');
    expect(smartBook.body.data.find((s) => s.order_id === parent)).toMatchObject({ is_tsl: true, trailing: false, remarks: 'smart-1' });
    const cancel = await h.call<Env>('POST', '/smart/order/cancel', { body: { order_id: parent, segment: 'EQUITY' } });
    expect(cancel.status, cancel.text).toBe(200);
  });
});

describe('portfolio and account (spec 2.2, 4.8)', () => {
  it('shows the filled buy in positions (filtered by segment and product), holdings and funds', async () => {
    await h.call('POST', '/order', { body: order({ order_type: 'MARKET', qty: 2, product: 'INTRADAY' }) });
    const all = await h.call<Env<Record<string, unknown>[]>>('GET', '/portfolio/positions');
    expect(all.status).toBe(200);
    const intraday = await h.call<Env<Record<string, unknown>[]>>('GET', '/portfolio/positions?segment=equity&product=intraday');
    expect(intraday.body.data.length).toBeGreaterThan(0);
    expect(intraday.body.data.every((p) => p['product'] === 'INTRADAY' && p['segment'] === 'EQUITY')).toBe(true);
    const drv = await h.call<Env<unknown[]>>('GET', '/portfolio/positions?segment=derivative');
    expect(drv.body.data).toEqual([]);
    const bad = await h.call<Env>('GET', '/portfolio/positions?segment=EQUITY');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^segment:/);
    const funds = await h.call<Env<Record<string, unknown>>>('GET', '/funds');
    expect(Object.keys(funds.body.data)).toEqual(
      expect.arrayContaining(['sod_balance', 'detailed_avl_balance', 'realized_pnl', 'unrealized_pnl', 'brokerage', 'eq_charges', 'fno_charges', 'withdrawal_balance']),
    );
    const holdings = await h.call<Env<unknown[]>>('GET', '/portfolio/holdings');
    expect(holdings.status).toBe(200);
    expect(Array.isArray(holdings.body.data)).toBe(true);
  });

  it('computes margin for an order', async () => {
    const price = await ltp();
    const r = await h.call<Env<Record<string, unknown>>>('GET', '/margin', {
      body: { segment: 'EQUITY', exchange: 'NSE', securityID: '2885', txnType: 'BUY', quantity: 10, price, product: 'CNC' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data['total_margin']).toBeCloseTo(price * 10, 0);
    expect(r.body.data['charges']).toHaveProperty('stt');
  });
});

describe('smart order parts by their own ids (wire-gaps)', () => {
  it('modifies the stop-loss leg by its GTT id, refuses a wrong-side move, and cancels one leg', async () => {
    const price = await ltp();
    const entry = Math.round(price * 0.94);
    const placed = await h.call<Env<{ order_data: { order_id: string; child_order_details: { order_id: string; leg: string } }[] }>>('POST', '/smart/order', {
      body: { txn_type: 'BUY', ...RELIANCE, product: 'CNC', order_type: 'LIMIT', validity: 'DAY', qty: 1, algo_id: '99999', limit_price: entry, sl_trigger_price: entry - 20, tgt_trigger_price: entry + 40 },
    });
    const sl = placed.body.data.order_data.find((d) => d.child_order_details.leg === 'stop_loss')!.child_order_details.order_id;
    const tgt = placed.body.data.order_data.find((d) => d.child_order_details.leg === 'target')!.child_order_details.order_id;
    const moved = await h.call<Env<{ order_status: string; smart_order: { stop_loss: { sl_trigger_price: string } } }>>('POST', '/smart/order/modify', {
      body: { order_id: sl, segment: 'EQUITY', algo_id: '99999', trigger_price: entry - 30 },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.order_status).toBe('MODIFIED');
    expect(Number(moved.body.data.smart_order.stop_loss.sl_trigger_price)).toBe(entry - 30);
    const wrong = await h.call<Env>('POST', '/smart/order/modify', { body: { order_id: sl, segment: 'EQUITY', trigger_price: entry + 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/SL trigger price should be less than/);
    const cancelled = await h.call<Env<{ smart_order: { target: { status: string }; stop_loss: { status: string } } }>>('POST', '/smart/order/cancel', { body: { order_id: tgt, segment: 'EQUITY' } });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data.smart_order.target.status).toBe('CANCELLED');
    expect(cancelled.body.data.smart_order.stop_loss.status).not.toBe('CANCELLED');
  });
});
