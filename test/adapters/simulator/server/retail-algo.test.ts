/**
 * The retail-algo framework at the simulator's door, over HTTP: new orders a second per exchange
 * segment and the algo id of the exchange (src/risk/rules/retail-algo.ts, the same words risk and
 * the client use).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRateRefusal } from '../../../../src/risk/rules/retail-algo.js';
import { defaultMarketProtectionPct, marketProtectionNote, protectionPrice } from '../../../../src/risk/rules/market-protection.js';
import { startHarness, type Harness } from './sim-harness.js';

let h: Harness;
beforeAll(async () => {
  // The account's order-API budget is raised so only the per-segment threshold (10) can refuse.
  h = await startHarness({ rateLimits: { orders: { perSecond: 100 } } });
});
afterAll(async () => h?.close());

const NSE_RELIANCE = { exchange: 'NSE', segment: 'EQUITY', security_id: '2885', algo_id: '99999' };
const BSE_RELIANCE = { exchange: 'BSE', segment: 'EQUITY', security_id: '500325', algo_id: '9999999999999999' };

/** A 1-share INTRADAY MARKET buy: accepted whether it fills or rests at its protection price. */
function marketBuy(where: Record<string, string>, remarks: string): Record<string, unknown> {
  return { txn_type: 'BUY', qty: 1, order_type: 'MARKET', validity: 'DAY', product: 'INTRADAY', is_amo: false, remarks, ...where };
}

interface Env {
  status: string;
  message?: string;
  error_type?: string;
}

describe('retail-algo framework in the simulator', () => {
  it('refuses the eleventh new order in a second on one exchange segment with 429 and the rule, and takes it a second later', async () => {
    h.clock.advanceBy(2000);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await h.call<Env>('POST', '/order', { body: marketBuy(NSE_RELIANCE, `rate-${i}`) }));
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
    const refused = answers[10]!;
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(orderRateRefusal('NSE EQUITY', 10));
    expect(refused.body.message).toContain('order rate above 10 orders a second on NSE EQUITY');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The refused order never reached the book.
    const book = await h.call<{ data: Array<{ remarks: string }> }>('GET', '/order-book');
    expect(book.body.data.some((o) => o.remarks === 'rate-10')).toBe(false);

    // Another exchange segment has its own budget in the same second.
    const bse = await h.call<Env>('POST', '/order', { body: marketBuy(BSE_RELIANCE, 'rate-bse') });
    expect(bse.status).toBe(200);

    h.clock.advanceBy(1000);
    const later = await h.call<Env>('POST', '/order', { body: marketBuy(NSE_RELIANCE, 'rate-10') });
    expect(later.status).toBe(200);
  });

  it('counts smart orders against the same per-segment threshold', async () => {
    h.clock.advanceBy(2000);
    for (let i = 0; i < 10; i++) expect((await h.call('POST', '/order', { body: marketBuy(NSE_RELIANCE, `mix-${i}`) })).status).toBe(200);
    const smart = await h.call<Env>('POST', '/smart/order', {
      body: { txn_type: 'BUY', ...NSE_RELIANCE, product: 'INTRADAY', order_type: 'MARKET', validity: 'DAY', qty: 1, remarks: 'mix-smart' },
    });
    expect(smart.status).toBe(429);
    expect(smart.body.message).toBe(orderRateRefusal('NSE EQUITY', 10));
  });

  it("refuses an order whose algo_id is not its exchange's, naming the id to send", async () => {
    h.clock.advanceBy(2000);
    const wrong = await h.call<Env>('POST', '/order', { body: marketBuy({ ...BSE_RELIANCE, algo_id: '99999' }, 'algo-wrong') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_type).toBe('InputException');
    expect(wrong.body.message).toBe('algo_id: algo_id 99999 is not an algo id of BSE: send 9999999999999999 (the generic id of BSE) or an algo id registered with BSE');
    const right = await h.call<Env>('POST', '/order', { body: marketBuy(BSE_RELIANCE, 'algo-right') });
    expect(right.status).toBe(200);
  });
});

describe('market protection in the simulator', () => {
  it('shows a MARKET order in the order book as a LIMIT at last price + 3%, saying so', async () => {
    h.clock.advanceBy(2000);
    const q = await h.call<{ data: Record<string, { live_price: number }> }>('GET', '/market/quotes/ltp?scrip-codes=NSE_2885');
    const ltp = Math.round(q.body.data['NSE_2885']!.live_price * 100);
    const placed = await h.call<{ data: { order_id: string } }>('POST', '/order', { body: marketBuy(NSE_RELIANCE, 'protected') });
    expect(placed.status).toBe(200);
    const rec = await h.call<{ data: Record<string, unknown> }>('GET', `/order?order_id=${placed.body.data.order_id}&segment=EQUITY`);
    const inst = h.sim.venue.instrument('NSE_2885')!;
    const limit = protectionPrice('BUY', ltp, defaultMarketProtectionPct(), inst.tickSize, undefined, undefined);
    expect(rec.body.data).toMatchObject({
      order_type: 'LIMIT',
      requested_price: (limit / 100).toFixed(2),
      market_protection_pct: 3,
      market_protection: marketProtectionNote(limit, 3),
    });
  });
});

describe('retail-algo framework with a registered algo', () => {
  it('accepts the registered id and the configured threshold', async () => {
    const reg = await startHarness({ rateLimits: { orders: { perSecond: 100 } }, retailAlgo: { perSegment: 20, algoIds: { NSE: '4242' } } });
    try {
      for (let i = 0; i < 20; i++) expect((await reg.call('POST', '/order', { body: marketBuy({ ...NSE_RELIANCE, algo_id: '4242' }, `reg-${i}`) })).status).toBe(200);
      const over = await reg.call<Env>('POST', '/order', { body: marketBuy({ ...NSE_RELIANCE, algo_id: '4242' }, 'reg-20') });
      expect(over.status).toBe(429);
      expect(over.body.message).toBe(orderRateRefusal('NSE EQUITY', 20));
    } finally {
      await reg.close();
    }
  });
});
