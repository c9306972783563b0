import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/core/bus/event-bus.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { FillEvent, OrderSnapshot } from '../../../src/core/events.js';
import { OrderStateMachine } from '../../../src/adapters/execution/order-state-machine.js';
import type { VenueUpdate } from '../../../src/adapters/execution/venue.js';

function setup() {
  const clock = new VirtualClock(1_000);
  const bus = new EventBus();
  const sm = new OrderStateMachine(clock, bus);
  const orders: OrderSnapshot[] = [];
  const fills: FillEvent[] = [];
  bus.on('order', (e) => orders.push(e.order));
  bus.on('fill', (f) => fills.push(f));
  sm.create({ tag: 'tr1-1', strategyId: 's', instrument: 'NSE_2885', side: 'BUY', qty: 10, orderType: 'LIMIT', product: 'INTRADAY', validity: 'DAY', limitPrice: 100_00 });
  return { sm, orders, fills };
}

const apply = (sm: OrderStateMachine, u: VenueUpdate) => (u.kind === 'order' ? sm.applyState(u.order) : u.kind === 'fill' ? sm.applyFill(u.fill) : undefined);

// The life of one order as the venue reports it: accepted, three fills, with cumulative states.
const LIFE: VenueUpdate[] = [
  { kind: 'order', order: { orderId: 'V1', status: 'OPEN', filledQty: 0, ts: 1 } },
  { kind: 'fill', fill: { fillId: 'f1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 5, price: 100_00, ts: 2 } },
  { kind: 'order', order: { orderId: 'V1', status: 'PARTIALLY_FILLED', filledQty: 5, avgPrice: 100_00, ts: 2 } },
  { kind: 'fill', fill: { fillId: 'f2', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 3, price: 99_95, ts: 3 } },
  { kind: 'order', order: { orderId: 'V1', status: 'PARTIALLY_FILLED', filledQty: 8, ts: 3 } },
  { kind: 'fill', fill: { fillId: 'f3', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 2, price: 99_90, ts: 4 } },
  { kind: 'order', order: { orderId: 'V1', status: 'FILLED', filledQty: 10, ts: 4 } },
];

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const a = [...xs];
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

describe('order state machine', () => {
  it('reaches one true state from shuffled and duplicated updates, whatever their order', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { sm, orders, fills } = setup();
      // Each update delivered once or twice, in a random order; the placement answer lands anywhere.
      const stream = shuffled([...LIFE, ...LIFE.filter((_, i) => (seed >> i) & 1)], seed);
      const ackAt = seed % (stream.length + 1);
      stream.forEach((u, i) => {
        if (i === ackAt) sm.accepted('tr1-1', 'V1', 'O-PENDING');
        apply(sm, u);
      });
      if (ackAt === stream.length) sm.accepted('tr1-1', 'V1', 'O-PENDING');
      const final = sm.get('tr1-1')!;
      expect(final.status, `seed ${seed}`).toBe('FILLED');
      expect(final.filledQty).toBe(10);
      expect(final.filledValue).toBe(5 * 100_00 + 3 * 99_95 + 2 * 99_90);
      expect(fills.map((f) => f.fillId).sort()).toEqual(['f1', 'f2', 'f3']);
      // Monotonic as published: filled quantity never goes down, nothing after FILLED.
      const filled = orders.map((o) => o.filledQty);
      expect(filled).toEqual([...filled].sort((a, b) => a - b));
      const firstFilled = orders.findIndex((o) => o.status === 'FILLED');
      expect(orders.slice(firstFilled).every((o) => o.status === 'FILLED')).toBe(true);
      expect(sm.openCount()).toBe(0);
    }
  });

  it('a late OPEN never overwrites FILLED and a late small filled quantity never lowers it', () => {
    const { sm } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'FILLED', filledQty: 10, avgPrice: 100_00, ts: 5 });
    sm.applyState({ orderId: 'V1', status: 'OPEN', filledQty: 0, ts: 1 });
    sm.applyState({ orderId: 'V1', status: 'PARTIALLY_FILLED', filledQty: 4, ts: 2 });
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', filledQty: 10 });
  });

  it('takes prices only from the freshest state', () => {
    const { sm } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'OPEN', limitPrice: 101_00, ts: 10 });
    sm.applyState({ orderId: 'V1', status: 'OPEN', limitPrice: 100_00, ts: 5 });
    expect(sm.get('tr1-1')?.limitPrice).toBe(101_00);
  });

  it('parks updates for an unknown venue id until the placement answer links it', () => {
    const { sm, fills } = setup();
    sm.applyFill({ fillId: 'f1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_00, ts: 2 });
    sm.applyState({ orderId: 'V1', status: 'FILLED', filledQty: 10, ts: 2 });
    expect(sm.get('tr1-1')?.status).toBe('PENDING_NEW');
    expect(sm.orphanIds()).toEqual(['V1']);
    sm.accepted('tr1-1', 'V1');
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', filledQty: 10, orderId: 'V1' });
    expect(fills).toHaveLength(1);
    expect(sm.orphanIds()).toEqual([]);
  });

  it('reports a gap when cumulative quantities run ahead of fills, and closes it with a synthetic fill at the average', () => {
    const { sm, fills } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'FILLED', filledQty: 10, avgPrice: 100_05, ts: 3 });
    expect(sm.fillGaps()).toEqual([{ tag: 'tr1-1', orderId: 'V1', missingQty: 10, avgPrice: 100_05 }]);
    expect(sm.closeGapSynthetic('tr1-1')).toBe(true);
    expect(fills[0]).toMatchObject({ fillId: 'synthetic:V1:10', qty: 10, price: 100_05 });
    expect(sm.fillGaps()).toEqual([]);
  });

  it('counts fills after a cancel but keeps the order cancelled', () => {
    const { sm } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'CANCELLED', filledQty: 0, ts: 3 });
    sm.applyFill({ fillId: 'f1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 4, price: 100_00, ts: 2 });
    expect(sm.get('tr1-1')).toMatchObject({ status: 'CANCELLED', filledQty: 4 });
  });
});

describe('retention of finished orders', () => {
  it('forgets the oldest finished orders beyond the limit and ignores their late updates', () => {
    const clock = new VirtualClock(1_000);
    const bus = new EventBus();
    const sm = new OrderStateMachine(clock, bus, { retainFinished: 2, isOurTag: () => true });
    sm.onUnknownTagged = () => {
      throw new Error('a forgotten order must not be adopted again');
    };
    const fills: FillEvent[] = [];
    bus.on('fill', (f) => fills.push(f));
    for (let k = 1; k <= 5; k++) {
      sm.create({ tag: `t${k}`, strategyId: 's', instrument: 'NSE_2885', side: 'BUY', qty: 1, orderType: 'MARKET', product: 'INTRADAY', validity: 'DAY' });
      sm.accepted(`t${k}`, `V${k}`);
      sm.applyFill({ fillId: `f${k}`, orderId: `V${k}`, instrument: 'NSE_2885', side: 'BUY', qty: 1, price: 100_00, ts: k });
    }
    expect(sm.all().map((o) => o.tag)).toEqual(['t4', 't5']);
    // A late duplicate for a forgotten order: dropped, not parked, not adopted, not booked again.
    sm.applyState({ orderId: 'V1', tag: 't1', status: 'FILLED', filledQty: 1, ts: 9 });
    expect(sm.applyFill({ fillId: 'f1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 1, price: 100_00, ts: 9 })).toBe(false);
    expect(sm.orphanIds()).toEqual([]);
    expect(fills).toHaveLength(5);
  });
});
