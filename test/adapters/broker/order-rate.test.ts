/**
 * The retail-algo framework in the broker client, against the simulator over HTTP: a burst of new
 * orders is queued per exchange segment so the broker never refuses one, and each order carries
 * its exchange's algo id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import type { PlaceOrderRequest } from '../../../src/adapters/broker/schemas/orders.js';
import { retailAlgoRules, thresholdRefusal } from '../../../src/risk/rules/retail-algo.js';
import { acked, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  // The account's order-API budget (spec 8) is raised on both sides, so only the per-segment
  // threshold stands between a burst and a 429.
  h = await startHarness({ sim: { rateLimits: { orders: { perSecond: 100 } } }, config: { rateLimits: { orders: { perWindow: 100 } } } });
});
afterAll(async () => h?.close());

function order(exchange: 'NSE' | 'BSE', securityId: string, remarks: string): PlaceOrderRequest {
  return { side: 'BUY', exchange, segment: 'EQUITY', securityId, qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY', remarks };
}

describe('order rate per exchange segment (broker client)', () => {
  it('queues a burst of 14 NSE orders behind the 10-a-second threshold: all placed, none refused by the broker', async () => {
    const c = h.broker.client;
    const nse = Array.from({ length: 14 }, (_, i) => c.placeOrder(order('NSE', '2885', `burst-${i}`)));
    const bse = c.placeOrder(order('BSE', '500325', 'burst-bse'));
    const results = await Promise.all([...nse, bse]);
    expect(results.every((r) => acked(r).orderId.length > 0)).toBe(true);
    // No 429: the burst waited on our side instead of being refused by the broker.
    expect(h.broker.http.stats.rateLimited).toBe(0);
    const stats = h.broker.limiters.segmentStats();
    expect(stats['NSE EQUITY']).toMatchObject({ granted: 14, delayed: 4 });
    // The BSE order did not wait behind the NSE burst: its segment has its own budget.
    expect(stats['BSE EQUITY']).toMatchObject({ granted: 1, delayed: 0 });
  });

  it("sends each order with its exchange's generic algo id", async () => {
    const c = h.broker.client;
    const n = acked(await c.placeOrder(order('NSE', '2885', 'algo-nse')));
    const b = acked(await c.placeOrder(order('BSE', '500325', 'algo-bse')));
    expect(h.sim.venue.order(n.orderId)?.algoId).toBe('99999');
    expect(h.sim.venue.order(b.orderId)?.algoId).toBe('9999999999999999');
  });
});

describe('order rate configuration', () => {
  const base = { baseUrl: 'http://127.0.0.1:1', accessToken: 't' };

  it('refuses a threshold above the exchange one without registered algo ids, in the rule\'s words', () => {
    const words = thresholdRefusal(20, {})!;
    expect(words).toBe('20 orders a second is above the retail-algo threshold of 10: only a registered algo may go faster, and no registered algo id is set for NSE, BSE');
    expect(() => parseBrokerConfig({ ...base, orderRate: { perSegment: 20 } })).toThrow(words);
  });

  it('accepts a higher threshold with algo ids registered on both exchanges, and defaults to the dated value', () => {
    expect(parseBrokerConfig({ ...base, orderRate: { perSegment: 20 }, algoIds: { NSE: '4242', BSE: '4343' } }).orderRate.perSegment).toBe(20);
    expect(parseBrokerConfig(base).orderRate.perSegment).toBeUndefined();
    expect(retailAlgoRules().ordersPerSecond).toBe(10);
  });
});
