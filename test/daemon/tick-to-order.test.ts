/**
 * Tick-to-order timing against the simulator over real HTTP/WebSocket: every order a tick makes is
 * timed once, from the socket read that carried the tick to the order handed to the venue's HTTP
 * client (observers.ts, send-stamping-venue.ts), and the timing loses or delays no order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engineOf, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

let h: PaperHarness;
beforeEach(async () => {
  h = await startPaperHarness({ speed: 10 });
});
afterEach(async () => {
  await h.close();
});

async function timedOrders(metric: { get(): Promise<{ values: readonly { metricName?: string; value: number }[] }> }): Promise<{ count: number; sum: number }> {
  const values = (await metric.get()).values;
  return {
    count: values.find((v) => v.metricName?.endsWith('_count'))?.value ?? NaN,
    sum: values.find((v) => v.metricName?.endsWith('_sum'))?.value ?? NaN,
  };
}

describe('tick-to-order timing', () => {
  it('times each order a tick made once, from its read to the venue, and every order reaches the broker', async () => {
    const d = await h.daemon({ n: 3 });
    const engine = engineOf(d);
    await until(() => engine.orders.all().filter((o) => o.status === 'FILLED').length === 3, 'three orders filled', 60_000);
    const t = await timedOrders(d.metrics.tickToOrder);
    expect(t.count).toBe(3);
    expect(t.sum).toBeGreaterThan(0);
    const atBroker = (await h.brokerView()).orders.filter((o) => o.instrument === h.instrument);
    expect(atBroker).toHaveLength(3);
  });
});
