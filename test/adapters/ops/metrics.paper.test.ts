/**
 * #13.6: `/metrics` once showed `orders_total{status="FILLED"} 10` beside `fills_total 5` for one
 * paper run. An order is announced FILLED more than once (while its fills are read, then booked;
 * again by a reconcile), and each announcement was counted. The counters must agree with the
 * broker's own order and trade books.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonMetrics } from '../../../src/adapters/ops/metrics.js';
import type { OrderSnapshot } from '../../../src/core/events.js';
import { seenOrders, startPaperHarness, until, type PaperHarness } from '../../daemon/support/paper-harness.js';

/** One sample of a counter from the Prometheus text, 0 when absent. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

describe('order and fill metrics', () => {
  it('count an order\'s terminal status once, however often it is announced', async () => {
    const m = new DaemonMetrics({ processMetrics: false });
    const booked = { tag: 'tr1-1', status: 'FILLED' } as unknown as OrderSnapshot;
    m.observe({ type: 'order', ts: 1, order: { ...booked, settling: true } });
    m.observe({ type: 'order', ts: 2, order: booked });
    m.observe({ type: 'order', ts: 3, order: booked });
    expect(sample(await m.text(), 'tarang_orders_total{status="FILLED"}')).toBe(1);
  });

  describe('over a paper session on the simulator', () => {
    let h: PaperHarness;
    beforeAll(async () => {
      h = await startPaperHarness();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('agree with the broker\'s order and trade books', async () => {
      const d = await h.daemon({ n: 5, concurrent: 2 });
      await until(() => seenOrders(d).filled >= 5 && seenOrders(d).open === 0, 'five buys filled');
      const view = await h.brokerView();
      await until(async () => {
        const text = await d.metrics.text();
        return sample(text, 'tarang_fills_total') === view.trades.length;
      }, 'the fills counted');
      const text = await d.metrics.text();
      const filledAtBroker = view.orders.filter((o) => o.status === 'FILLED').length;
      expect(filledAtBroker).toBe(5);
      expect(sample(text, 'tarang_orders_total{status="FILLED"}')).toBe(filledAtBroker);
      expect(sample(text, 'tarang_fills_total')).toBe(view.trades.length);
      await d.stop('test done', 'none');
    });
  });
});
