/**
 * Lost write answers settled by their one owner, the execution layer (lost-answers.ts), against
 * the simulator over loopback HTTP with injected faults: an ack lost after the broker acted
 * (`lost_ack_rate`, as a timeout or a 5xx) is read back from the order book and never sent again;
 * a write refused before it was carried out (`error_rate`: 503) is sent exactly once more, and only
 * after the book proved it absent. The broker client under it is a transport: it only reports the
 * loss. The looks run on a virtual clock the test moves; the HTTP round trips are real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../broker/harness.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { parseExecutionConfig } from '../../../src/adapters/execution/config.js';
import { ExecutionEngine } from '../../../src/adapters/execution/execution-engine.js';
import { OrderStateMachine } from '../../../src/adapters/execution/order-state-machine.js';
import { Portfolio } from '../../../src/adapters/execution/portfolio.js';
import { EventBus } from '../../../src/core/bus/event-bus.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Event, LostAnswerEvent } from '../../../src/core/events.js';
import type { Intent } from '../../../src/core/intents.js';
import { silentLogger } from '../../../src/core/log.js';
import { until } from '../../support/wait.js';

let h: Harness;
/** A limit price that rests (below the market, inside the circuit band). */
let resting = 0;
let n = 0;

beforeAll(async () => {
  h = await startHarness();
  const ltp = (await h.broker.client.quotesLtp(['NSE_2885']))['NSE_2885']!.ltp;
  resting = Math.floor((ltp * 0.95) / 10) * 10;
});
afterAll(async () => {
  await h.close();
});

/** An execution engine over the broker venue; its lost-answer looks on a virtual clock. */
function execution() {
  const clock = new VirtualClock(h.sim.clock.now());
  const bus = new EventBus();
  const orders = new OrderStateMachine(clock, bus);
  const venue = new BrokerVenue(h.broker);
  const engine = new ExecutionEngine({
    clock, bus, venue, orders, portfolio: new Portfolio(clock, bus), config: parseExecutionConfig({ reconcileDelaysMs: [100, 200] }),
    maxModifications: 25, replaceAt: 24, newTag: () => `la-new-${++n}`, log: silentLogger(),
  });
  const events: Event[] = [];
  bus.onAny((e) => events.push(e));
  const lost = () => events.filter((e): e is LostAnswerEvent => e.type === 'lost-answer');
  /** Moves the virtual clock in small steps until `cond` holds (the HTTP answers arrive in real time). */
  const settle = (cond: () => boolean, what: string) =>
    until(async () => {
      await clock.advanceByAsync(50);
      return cond();
    }, what);
  return { clock, orders, engine, events, lost, settle, run: (i: Intent) => engine.execute(i) };
}

const tag = (what: string) => `la-${what}-${++n}`;
const place = (id: string): Intent => ({ kind: 'place', id, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: resting, validity: 'DAY', product: 'CNC' });

async function requestsTo(path: string): Promise<number> {
  const r = await h.control('GET', '/sim/requests');
  const rows = ((r.json as { data?: unknown }).data ?? r.json) as Array<{ path: string; method: string }>;
  return rows.filter((x) => x.method === 'POST' && x.path.split('?')[0] === path).length;
}

async function tagged(t: string): Promise<string[]> {
  return (await h.broker.client.orderBook()).filter((o) => o.remarks === t).map((o) => o.orderId);
}

async function withFaults<T>(faults: Record<string, unknown>, body: () => Promise<T>): Promise<T> {
  await h.control('POST', '/sim/faults', faults);
  try {
    return await body();
  } finally {
    await h.control('POST', '/sim/faults', { lost_ack_rate: 0, error_rate: 0 });
  }
}

describe('a place whose answer is lost', () => {
  for (const mode of ['timeout', '5xx'] as const) {
    it(`after the broker placed it (${mode}): found by tag, adopted, zero resends, one order`, async () => {
      const x = execution();
      const t = tag(`ack-${mode}`);
      const posted = await requestsTo('/order');
      await withFaults({ lost_ack_rate: 1, lost_ack_mode: mode }, async () => {
        x.run(place(t));
        await x.settle(() => x.lost().length > 0, 'the lost place to be settled');
      });
      const o = x.orders.get(t)!;
      expect(o.orderId).toBeDefined();
      expect(o.status).toBe('OPEN');
      expect(x.lost().map((e) => [e.op, e.verdict, e.orderId])).toEqual([['place', 'done', o.orderId]]);
      expect(await tagged(t)).toEqual([o.orderId]);
      expect(await requestsTo('/order')).toBe(posted + 1);
    });
  }

  it('before the broker carried it out (503): the book shows nothing, so it is sent exactly once more: one order', async () => {
    const x = execution();
    const t = tag('refused');
    const posted = await requestsTo('/order');
    await withFaults({ error_rate: 1 }, async () => {
      x.run(place(t));
      // The refusal is answered at once (nothing carried out); heal before the first look.
      await until(async () => (await requestsTo('/order')) === posted + 1, 'the first POST /order to be refused');
    });
    await x.settle(() => x.orders.get(t)?.orderId !== undefined, 'the resent order to be placed');
    expect(x.lost().map((e) => [e.verdict, e.round])).toEqual([['resent', 1]]);
    expect(await requestsTo('/order')).toBe(posted + 2);
    expect(await tagged(t)).toEqual([x.orders.get(t)!.orderId]);
    expect(x.orders.get(t)?.status).toBe('OPEN');
  });
});

describe('a change whose answer is lost', () => {
  it('a cancel acted on (5xx) is read back as cancelled, not sent again', async () => {
    const x = execution();
    const t = tag('cancel');
    x.run(place(t));
    await x.settle(() => x.orders.get(t)?.orderId !== undefined, 'the order to be placed');
    const cancels = await requestsTo('/order/cancel');
    await withFaults({ lost_ack_rate: 1, lost_ack_mode: '5xx' }, async () => {
      x.run({ kind: 'cancel', id: tag('c'), strategyId: 's1', target: t });
      await x.settle(() => x.lost().length > 0, 'the lost cancel to be settled');
    });
    expect(x.lost().map((e) => [e.op, e.verdict])).toEqual([['cancel', 'done']]);
    expect(x.orders.get(t)?.status).toBe('CANCELLED');
    expect(await requestsTo('/order/cancel')).toBe(cancels + 1);
  });

  it("a smart order's stop-loss modify and entry cancel acted on (timeout) are read back from the parts' records, never resent", async () => {
    const x = execution();
    const t = tag('smart');
    x.run({ kind: 'smart', id: t, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 1, entryType: 'LIMIT', limitPrice: resting, stopLoss: { triggerPrice: resting - 2000 }, target: { triggerPrice: resting + 2000 }, validity: 'DAY', product: 'CNC' });
    await x.settle(() => x.orders.get(`${t}.sl`)?.orderId !== undefined, 'the smart order and its legs to be placed');
    const mods = await requestsTo('/smart/order/modify');
    const cancels = await requestsTo('/smart/order/cancel');
    await withFaults({ lost_ack_rate: 1, lost_ack_mode: 'timeout' }, async () => {
      x.run({ kind: 'modify', id: tag('m'), strategyId: 's1', target: t, leg: 'stopLoss', triggerPrice: resting - 1500 });
      await x.settle(() => x.lost().length === 1, 'the lost modify to be settled');
      x.run({ kind: 'cancel', id: tag('c'), strategyId: 's1', target: t });
      await x.settle(() => x.lost().length === 2, 'the lost cancel to be settled');
    });
    expect(x.lost().map((e) => [e.op, e.verdict])).toEqual([
      ['modifySmart', 'done'],
      ['cancelSmart', 'done'],
    ]);
    expect(x.orders.get(`${t}.sl`)?.triggerPrice).toBe(resting - 1500);
    expect([t, `${t}.sl`, `${t}.tg`].map((k) => x.orders.get(k)?.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect(await requestsTo('/smart/order/modify')).toBe(mods + 1);
    expect(await requestsTo('/smart/order/cancel')).toBe(cancels + 1);
  });
});
