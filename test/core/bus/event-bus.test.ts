import { merge } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/core/bus/event-bus.js';
import type { Event, OrderEvent, TickEvent } from '../../../src/core/events.js';

const tick = (ts: number, instrument = 'NSE_1', ltp = 100): TickEvent => ({ type: 'tick', ts, instrument, ltp });
const order = (ts: number, tag: string): OrderEvent => ({
  type: 'order',
  ts,
  order: {
    tag, strategyId: 's', instrument: 'NSE_1', side: 'BUY', qty: 1, orderType: 'MARKET', product: 'INTRADAY', validity: 'DAY',
    status: 'OPEN', filledQty: 0, filledValue: 0, modifications: 0,
  },
});

describe('EventBus', () => {
  it('merges connected sources into one ordered stream (marble)', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, expectObservable }) => {
      const bus = new EventBus();
      const ticks = cold('a--b---c', { a: tick(0), b: tick(3), c: tick(7) });
      const orders = cold('--x--y', { x: order(2, 'o1'), y: order(5, 'o1') });
      expectObservable(bus.events$).toBe('a-xb-y-c', { a: tick(0), b: tick(3), c: tick(7), x: order(2, 'o1'), y: order(5, 'o1') });
      bus.connect(merge(ticks, orders));
    });
  });

  it('per-topic views carry only their type (marble)', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, expectObservable }) => {
      const bus = new EventBus();
      const src = cold<Event>('a-x-b', { a: tick(0), b: tick(4), x: order(2, 'o1') });
      expectObservable(bus.of$('order')).toBe('--x', { x: order(2, 'o1') });
      expectObservable(bus.of$('tick')).toBe('a---b', { a: tick(0), b: tick(4) });
      bus.connect(src);
    });
  });

  it('delivers to listener objects and functions in subscription order, and unsubscribes either', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    class Counter {
      constructor(private readonly name: string) {}
      onBusEvent(e: TickEvent): void {
        seen.push(`${this.name}:${e.ts}`);
      }
    }
    const offA = bus.on('tick', new Counter('a'));
    bus.on('tick', (e) => seen.push(`fn:${e.ts}`));
    const b = new Counter('b');
    const offB = bus.on('tick', b);
    bus.publish(tick(1));
    offA();
    offB();
    bus.publish(tick(2));
    expect(seen).toEqual(['a:1', 'fn:1', 'b:1', 'fn:2']);
  });

  it('queues events published from a handler behind the current one (run to completion)', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on('tick', (t) => {
      seen.push(`tick-a:${t.ts}`);
      if (t.ts === 1) bus.publish(order(1, 'nested'));
    });
    bus.on('tick', (t) => seen.push(`tick-b:${t.ts}`));
    bus.on('order', (o) => seen.push(`order:${o.order.tag}`));
    bus.publish(tick(1));
    expect(seen).toEqual(['tick-a:1', 'tick-b:1', 'order:nested']);
    expect(bus.backlog).toBe(0);
  });

  it('a throwing handler is skipped and the others still run', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.on('tick', () => {
      throw new Error('boom');
    });
    bus.on('tick', (t) => seen.push(t.ts));
    bus.publish(tick(1));
    bus.publish(tick(2));
    expect(seen).toEqual([1, 2]);
    expect(bus.errors).toBe(2);
  });

  it('unsubscribing inside a dispatch does not disturb it', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.on('tick', () => {
      seen.push('first');
      off();
    });
    bus.on('tick', () => seen.push('second'));
    bus.publish(tick(1));
    bus.publish(tick(2));
    expect(seen).toEqual(['first', 'second', 'second']);
  });
});

describe('slow consumers', () => {
  it('conflate ticks per instrument but never drop order events, and never block the publisher', async () => {
    const bus = new EventBus();
    const got: Event[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    const slow = bus.attachSlow(async (e) => {
      if (first) {
        first = false;
        await gate;
      }
      got.push(e);
    });
    // The first event blocks the consumer; the publisher keeps going.
    bus.publish(tick(0, 'NSE_1', 100));
    await new Promise((r) => setImmediate(r));
    for (let i = 1; i <= 1000; i++) {
      bus.publish(tick(i, 'NSE_1', 100 + i));
      bus.publish(tick(i, 'NSE_2', 200 + i));
      if (i % 100 === 0) bus.publish(order(i, `o${i}`));
    }
    expect(bus.count).toBe(1 + 2000 + 10);
    release();
    await slow.idle();
    const orders = got.filter((e) => e.type === 'order');
    expect(orders.map((o) => (o as OrderEvent).order.tag)).toEqual(Array.from({ length: 10 }, (_, k) => `o${(k + 1) * 100}`));
    const ticks = got.filter((e): e is TickEvent => e.type === 'tick');
    // The blocked first tick, then only the latest tick per instrument.
    expect(ticks.map((t) => `${t.instrument}@${t.ts}`)).toEqual(['NSE_1@0', 'NSE_1@1000', 'NSE_2@1000']);
    expect(slow.conflated).toBe(1998);
    // Bus order is preserved: the conflated ticks of 1000 were published before order o1000.
    expect(got.slice(-3).map((e) => e.type)).toEqual(['tick', 'tick', 'order']);
  });

  it('keeps every tick when conflation is off (the recorder)', async () => {
    const bus = new EventBus();
    const got: Event[] = [];
    const slow = bus.attachSlow((e) => void got.push(e), { conflateTicks: false });
    for (let i = 0; i < 100; i++) bus.publish(tick(i));
    await slow.idle();
    expect(got).toHaveLength(100);
    slow.close();
    bus.publish(tick(200));
    await slow.idle();
    expect(got).toHaveLength(100);
  });
});
