/**
 * Never trade on a wrong view (issue 14, A and B), against the simulator over real HTTP/WebSocket:
 * a strategy that trusts `ctx.orders.open` and its position never buys twice while an order's
 * fills are still being read (trade reads timing out), and terse order updates (bare ids, one-letter
 * statuses) followed by a WebSocket drop never book a fill twice.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events.js';
import { BUY_N, compareWithBroker, engineOf, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

const LONG_FLIP = join(BUY_N, '..', 'long-flip.ts');
const QTY = 5;
const ENTRIES = 4;

let h: PaperHarness;
beforeEach(async () => {
  h = await startPaperHarness({ speed: 10 });
});
afterEach(async () => {
  await h.close();
});

/** The broker's net position in the instrument, from its trade book. */
async function brokerNet(): Promise<number> {
  const v = await h.brokerView();
  return v.trades.filter((t) => t.instrument === h.instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0);
}

describe('fills booked before an order is done to a strategy', () => {
  it('keeps a long-only strategy at 0 or qty while trade reads time out, holding entries until fills are booked', async () => {
    const events: Event[] = [];
    const d = await h.daemon({
      n: 1,
      config: { strategies: [{ id: 'flip', strategy: LONG_FLIP, params: { instrument: h.instrument, qty: QTY, entries: ENTRIES } }] },
      broker: { timeouts: { connectMs: 2000, requestMs: 400, writeMs: 400 } },
      observe: (e) => void events.push(e),
    });
    const engine = engineOf(d);
    const entries = (): number => Number(engine.runners[0]!.ctx.state['entries'] ?? 0);
    // What a strategy is told is done must already be in its position.
    const doneUnbooked: string[] = [];
    engine.bus.on('order', (e) => {
      if (e.order.status === 'FILLED' && !e.order.settling && e.order.filledValue === 0) doneUnbooked.push(e.order.tag);
    });
    await h.faults({ timeout_rate: 0.3 });
    const seen: number[] = [];
    while (entries() < ENTRIES) {
      await h.elapse(500);
      seen.push(engine.portfolio.netQty(h.instrument));
    }
    await h.clearFaults();
    await until(() => engine.portfolio.netQty(h.instrument) === 0 && engine.orders.openCount() === 0 && engine.orders.fillGaps().length === 0, 'the last exit done and booked', 60_000);
    expect(seen.every((n) => n >= 0 && n <= QTY), `positions seen: ${seen.join(' ')}`).toBe(true);
    expect(doneUnbooked).toEqual([]);
    // The broker's position, trade by trade, never left 0..qty either.
    const trades = [...(await h.brokerView()).trades].filter((t) => t.instrument === h.instrument).sort((a, b) => a.ts - b.ts || a.fillId.localeCompare(b.fillId));
    let net = 0;
    const path = trades.map((t) => (net += t.side === 'BUY' ? t.qty : -t.qty));
    expect(path.every((n) => n >= 0 && n <= QTY), `broker position path: ${path.join(' ')}`).toBe(true);
    expect(trades.filter((t) => t.side === 'BUY').reduce((n, t) => n + t.qty, 0)).toBeGreaterThanOrEqual(QTY);
    // Orders the strategy sent while a fill was unread were held and said so, not dropped silently.
    const placed = events.filter((e) => e.type === 'intent' && e.intent.kind === 'place').length;
    const held = events.filter((e) => e.type === 'denied' && e.code === 'INSTRUMENT_HELD').length;
    expect(placed - held).toBe(engine.orders.all().length);
    let problems: string[] = [];
    await until(async () => (problems = compareWithBroker(d, await h.brokerView(), h.instrument).problems).length === 0, 'the daemon and the broker to agree').catch(() => undefined);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('terse order updates and a WebSocket drop', () => {
  it('books each fill once: filled quantity never exceeds the order quantity, and the position equals the broker', async () => {
    // Lost acks: the stream's bare id reaches the engine before any answer names the full one.
    await h.faults({ ws_terse_orders: true, lost_ack_rate: 0.5, lost_ack_mode: 'timeout' });
    const d = await h.daemon({ n: 6, concurrent: 2, broker: { timeouts: { connectMs: 2000, requestMs: 1500, writeMs: 500 } } });
    const engine = engineOf(d);
    const over: string[] = [];
    const fillIds = new Set<string>();
    engine.bus.on('order', (e) => {
      if (e.order.filledQty > e.order.qty) over.push(`${e.order.tag} ${e.order.filledQty}/${e.order.qty}`);
    });
    engine.bus.on('fill', (f) => {
      if (fillIds.has(f.fillId)) over.push(`fill ${f.fillId} twice`);
      fillIds.add(f.fillId);
    });
    // buy-n counts the buys it asked for; one asked while a fill was being read is held (denied).
    await until(() => Number(engine.runners[0]!.ctx.state['placed'] ?? 0) >= 6 && engine.orders.openCount() === 0, 'six buys asked for and done');
    // Whatever was booked so far (from the stream, trade reads, or a fill the venue could not
    // list yet), the drop's reconcile reads the whole book and trade book again.
    await h.faults({ ws_drop: true });
    await h.elapse(5_000);
    await until(() => engine.orders.fillGaps().length === 0, 'every fill booked');
    await h.clearFaults();
    let problems: string[] = [];
    await until(async () => (problems = compareWithBroker(d, await h.brokerView(), h.instrument).problems).length === 0, 'the daemon and the broker to agree').catch(() => undefined);
    expect(problems).toEqual([]);
    expect(over).toEqual([]);
    expect(engine.portfolio.netQty(h.instrument)).toBe(await brokerNet());
    expect(engine.portfolio.netQty(h.instrument)).toBe(engine.orders.all().length);
  });
});
