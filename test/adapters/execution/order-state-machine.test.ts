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

  it('marks an order settling while the venue reports fills not booked, and lists it as settling until they are', () => {
    const { sm, orders } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'FILLED', filledQty: 10, avgPrice: 100_00, ts: 3 });
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', settling: true });
    expect(sm.openOrders('s', 'NSE_2885')).toEqual([]);
    expect(sm.settling('s', 'NSE_2885').map((o) => o.tag)).toEqual(['tr1-1']);
    expect(sm.settlingIn('NSE_2885')).toBe('tr1-1');
    expect(sm.settlingIn('NSE_1594')).toBeUndefined();
    sm.applyFill({ fillId: 'f1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_00, ts: 4 });
    expect(sm.get('tr1-1')!.settling).toBeUndefined();
    expect(orders.at(-1)).toMatchObject({ status: 'FILLED', filledQty: 10 });
    expect(orders.at(-1)!.settling).toBeUndefined();
    expect(sm.settlingIn('NSE_2885')).toBeUndefined();
  });

  it('books a real fill that arrives after a synthetic one for the same quantity once, not twice', () => {
    const { sm, fills } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'FILLED', filledQty: 10, avgPrice: 100_05, ts: 3 });
    expect(sm.closeGapSynthetic('tr1-1')).toBe(true);
    // The reconcile later reads the broker's trade for it: already booked.
    expect(sm.applyFill({ fillId: 'T-9', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_05, ts: 5 })).toBe(false);
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', filledQty: 10 });
    expect(fills.map((f) => [f.fillId, f.qty])).toEqual([['synthetic:V1:10', 10]]);
  });

  it('books only the part of a real fill beyond what a synthetic fill covered', () => {
    const { sm, fills } = setup();
    sm.accepted('tr1-1', 'V1');
    sm.applyState({ orderId: 'V1', status: 'PARTIALLY_FILLED', filledQty: 4, avgPrice: 100_00, ts: 3 });
    sm.closeGapSynthetic('tr1-1');
    sm.applyFill({ fillId: 'T-1', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 6, price: 100_00, ts: 5 });
    sm.applyFill({ fillId: 'T-2', orderId: 'V1', instrument: 'NSE_2885', side: 'BUY', qty: 4, price: 100_00, ts: 6 });
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', filledQty: 10 });
    expect(fills.map((f) => [f.fillId, f.qty])).toEqual([['synthetic:V1:4', 4], ['T-1', 2], ['T-2', 4]]);
  });

  it('takes a bare numeric id from the stream and the full id for one order, reading trades by the full one', () => {
    const { sm, fills } = setup();
    // The terse stream names the order before the placement answer does.
    sm.applyState({ orderId: '1000042', tag: 'tr1-1', status: 'FILLED', filledQty: 10, avgPrice: 100_00, ts: 2 });
    expect(sm.get('tr1-1')!.orderId).toBe('1000042');
    sm.accepted('tr1-1', 'EQ-1000042');
    expect(sm.get('tr1-1')!.orderId).toBe('EQ-1000042');
    expect(sm.fillGaps()).toEqual([{ tag: 'tr1-1', orderId: 'EQ-1000042', missingQty: 10, avgPrice: 100_00 }]);
    // Later updates under either spelling land on the same order; the fill is booked once.
    sm.applyState({ orderId: '1000042', status: 'FILLED', filledQty: 10, ts: 3 });
    sm.applyFill({ fillId: 'T-1', orderId: 'EQ-1000042', instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_00, ts: 4 });
    sm.applyFill({ fillId: 'T-1', orderId: '1000042', instrument: 'NSE_2885', side: 'BUY', qty: 10, price: 100_00, ts: 4 });
    expect(sm.get('tr1-1')).toMatchObject({ status: 'FILLED', filledQty: 10, orderId: 'EQ-1000042' });
    expect(fills).toHaveLength(1);
    expect(sm.tagOfOrderId('1000042')).toBe('tr1-1');
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

describe('terminal snapshots of the session', () => {
  it('a forgotten order that finished today still answers get() with its last terminal snapshot, following a replacement, until the IST day ends', () => {
    const clock = new VirtualClock(1_736_135_100_000); // 2025-01-06 09:15 IST
    const bus = new EventBus();
    const sm = new OrderStateMachine(clock, bus, { retainFinished: 1 });
    const mk = (tag: string, replaces?: string) => sm.create({ tag, strategyId: 's', instrument: 'NSE_2885', side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 100_00, product: 'INTRADAY', validity: 'DAY', ...(replaces ? { replaces } : {}) });
    mk('a');
    sm.accepted('a', 'VA');
    sm.applyFill({ fillId: 'fa', orderId: 'VA', instrument: 'NSE_2885', side: 'BUY', qty: 1, price: 100_00, ts: 1 });
    mk('b');
    sm.accepted('b', 'VB');
    sm.applyState({ orderId: 'VB', status: 'CANCELLED', ts: 2 });
    mk('c', 'b');
    sm.accepted('c', 'VC');
    sm.applyState({ orderId: 'VC', status: 'CANCELLED', ts: 3 });
    mk('d');
    sm.accepted('d', 'VD');
    sm.applyState({ orderId: 'VD', status: 'REJECTED', reason: 'no', ts: 4 });
    expect(sm.all().map((o) => o.tag)).toEqual(['d']);
    expect(sm.get('a')).toMatchObject({ tag: 'a', status: 'FILLED', filledQty: 1, orderId: 'VA' });
    expect(sm.get('b')).toMatchObject({ tag: 'c', status: 'CANCELLED' });
    expect(sm.getExact('b')).toMatchObject({ tag: 'b', status: 'CANCELLED' });
    clock.advanceBy(24 * 3_600_000);
    expect(sm.get('a')).toBeUndefined();
    expect(sm.get('d')).toMatchObject({ status: 'REJECTED' });
  });
});

describe('smart-order legs', () => {
  function smartSetup() {
    const clock = new VirtualClock(1_000);
    const bus = new EventBus();
    const sm = new OrderStateMachine(clock, bus);
    const fills: FillEvent[] = [];
    bus.on('fill', (f) => fills.push(f));
    const base = { strategyId: 's', instrument: 'NSE_1333', qty: 10, product: 'INTRADAY', validity: 'DAY' } as const;
    sm.create({ ...base, tag: 'p1', side: 'BUY', orderType: 'STOP_LOSS', triggerPrice: 1000_00, leg: 'entry' });
    sm.create({ ...base, tag: 'p1.sl', side: 'SELL', orderType: 'STOP_LOSS', triggerPrice: 990_00, parentTag: 'p1', leg: 'stopLoss' });
    sm.create({ ...base, tag: 'p1.tg', side: 'SELL', orderType: 'LIMIT', triggerPrice: 1010_00, limitPrice: 1010_00, parentTag: 'p1', leg: 'target' });
    return { sm, fills };
  }
  // What the stream sends for a leg: its own id, the parent's remarks, no leg name.
  const legUpdate = (orderId: string, triggerPrice: number, extra: object = {}) => ({ orderId, tag: 'p1', instrument: 'NSE_1333', side: 'SELL' as const, qty: 10, orderType: 'STOP_LOSS' as const, triggerPrice, status: 'TRIGGER_PENDING' as const, filledQty: 0, ts: 5, ...extra });

  it('leg updates that arrive before the placement answer never touch the parent; the entry fill is booked on the entry', () => {
    const { sm, fills } = smartSetup();
    sm.applyState(legUpdate('GTT-1', 990_00));
    sm.applyState(legUpdate('GTT-2', 1010_00));
    expect(sm.get('p1')).toMatchObject({ status: 'PENDING_NEW', side: 'BUY' });
    expect(sm.get('p1')?.orderId).toBeUndefined();
    // The entry's update and fill, still before the answer.
    sm.applyState({ orderId: 'EQ-1', tag: 'p1', side: 'BUY', status: 'FILLED', filledQty: 10, avgPrice: 1000_00, ts: 6 });
    sm.applyFill({ fillId: 'f1', orderId: 'EQ-1', tag: 'p1', instrument: 'NSE_1333', side: 'BUY', qty: 10, price: 1000_00, ts: 6 });
    sm.accepted('p1', 'EQ-1', 'CREATED', { stopLoss: 'GTT-1', target: 'GTT-2' });
    expect(sm.get('p1')).toMatchObject({ orderId: 'EQ-1', side: 'BUY', status: 'FILLED', filledQty: 10 });
    expect(sm.get('p1.sl')).toMatchObject({ orderId: 'GTT-1', side: 'SELL', status: 'TRIGGER_PENDING', filledQty: 0, triggerPrice: 990_00 });
    expect(sm.get('p1.tg')).toMatchObject({ orderId: 'GTT-2', side: 'SELL', filledQty: 0 });
    expect(fills.map((f) => [f.tag, f.side, f.qty])).toEqual([['p1', 'BUY', 10]]);
    expect(sm.tagOfOrderId('GTT-1')).toBe('p1.sl');
    expect(sm.orphanIds()).toEqual([]);
  });

  it('a leg update without side or leg name waits until the leg id is known, whatever comes first', () => {
    const { sm } = smartSetup();
    sm.applyState({ orderId: 'GTT-1', tag: 'p1', status: 'TRIGGER_PENDING', ts: 5 });
    expect(sm.orphanIds()).toEqual(['GTT-1']);
    expect(sm.get('p1')?.orderId).toBeUndefined();
    sm.accepted('p1', 'EQ-1', 'CREATED', { stopLoss: 'GTT-1', target: 'GTT-2' });
    expect(sm.get('p1.sl')).toMatchObject({ orderId: 'GTT-1', status: 'TRIGGER_PENDING' });
    expect(sm.get('p1')?.orderId).toBe('EQ-1');
  });

  it('a leg first seen on the stream after the answer (no leg ids in it) becomes its own order by side and trigger', () => {
    const { sm, fills } = smartSetup();
    sm.accepted('p1', 'EQ-1', 'CREATED');
    sm.applyState(legUpdate('GTT-2', 1010_00));
    sm.applyState(legUpdate('GTT-1', 990_00, { status: 'FILLED', filledQty: 10, ts: 9 }));
    sm.applyFill({ fillId: 'f9', orderId: 'GTT-1', tag: 'p1', instrument: 'NSE_1333', side: 'SELL', qty: 10, price: 990_00, ts: 9 });
    expect(sm.get('p1')).toMatchObject({ orderId: 'EQ-1', side: 'BUY', status: 'TRIGGER_PENDING', filledQty: 0 });
    expect(sm.get('p1.tg')?.orderId).toBe('GTT-2');
    expect(sm.get('p1.sl')).toMatchObject({ orderId: 'GTT-1', status: 'FILLED', filledQty: 10 });
    expect(fills.map((f) => [f.tag, f.side])).toEqual([['p1.sl', 'SELL']]);
  });
  it('lists open orders per strategy and instrument in creation order, counts entries only, and sums working quantity per side', () => {
    const { sm } = setup();
    const order = (tag: string, strategyId: string, instrument: string, side: 'BUY' | 'SELL', qty: number, leg?: 'entry' | 'stopLoss' | 'target') =>
      sm.create({ tag, strategyId, instrument, side, qty, orderType: 'LIMIT', product: 'INTRADAY', validity: 'DAY', limitPrice: 100_00, ...(leg ? { leg, parentTag: 'p1' } : {}) });
    order('a1', 's', 'NSE_1594', 'BUY', 5);
    order('b1', 't', 'NSE_2885', 'SELL', 7);
    order('p1.sl', 's', 'NSE_2885', 'SELL', 10, 'stopLoss');
    order('a2', 's', 'NSE_2885', 'BUY', 3);
    expect(sm.openOrders('s', 'NSE_2885').map((o) => o.tag)).toEqual(['tr1-1', 'p1.sl', 'a2']);
    expect(sm.openOrders(undefined, 'NSE_2885').map((o) => o.tag)).toEqual(['tr1-1', 'b1', 'p1.sl', 'a2']);
    expect(sm.openOrders('s').map((o) => o.tag)).toEqual(['tr1-1', 'a1', 'p1.sl', 'a2']);
    expect(sm.openOrders('s', 'NSE_11536')).toEqual([]);
    // The stop-loss leg only ever reduces: not an open entry, not working quantity.
    expect(sm.openCount()).toBe(4);
    expect(sm.workingQty('NSE_2885', 'BUY')).toBe(13);
    expect(sm.workingQty('NSE_2885', 'SELL')).toBe(7);
    sm.rejected('tr1-1', 'test');
    sm.rejected('p1.sl', 'test');
    sm.rejected('p1.sl', 'test again');
    expect(sm.openOrders('s', 'NSE_2885').map((o) => o.tag)).toEqual(['a2']);
    expect(sm.openCount()).toBe(3);
    expect(sm.workingQty('NSE_2885', 'BUY')).toBe(3);
    sm.rejected('a1', 'test');
    expect(sm.openOrders(undefined, 'NSE_1594')).toEqual([]);
    expect(sm.openOrders().map((o) => o.tag)).toEqual(['b1', 'a2']);
    expect(sm.openCount()).toBe(2);
  });
});
