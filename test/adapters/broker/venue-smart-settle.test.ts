/**
 * How the broker venue reads the order book after a smart-order modify or cancel lost its answer:
 * applied, refused (finished without it), pending (look again), or undecidable (the book does not
 * show the changed field).
 */
import { describe, expect, it } from 'vitest';
import { smartCancelShown, smartModifyShown } from '../../../src/adapters/broker/venue.js';
import type { OrderRecord } from '../../../src/adapters/broker/schemas/orders.js';

const part = (p: Partial<OrderRecord> & { orderId: string }): OrderRecord => ({
  qty: 10, filledQty: 0, venueStatus: 'PENDING', status: 'OPEN', isTsl: false, remarks: 'tr1-1', smartOrderId: 'SMT-1', ...p,
});
const entry = part({ orderId: 'SMT-1', leg: 'entry', price: 100_00, slTriggerPrice: 98_00, tgtTriggerPrice: 104_00 });
const sl = part({ orderId: 'GTT-2', leg: 'stop_loss', slTriggerPrice: 98_00, tgtTriggerPrice: 104_00, status: 'TRIGGER_PENDING' });
const tg = part({ orderId: 'GTT-3', leg: 'target', price: 104_00, slTriggerPrice: 98_00, tgtTriggerPrice: 104_00 });
const base = { tag: 'tr1-1', instrument: 'NSE_2885' };

describe('smart-order modify after a lost answer', () => {
  it('is applied when the part shows every requested field (a leg trigger as the stop-loss or target trigger)', () => {
    const moved = { ...sl, slTriggerPrice: 98_50 };
    expect(smartModifyShown([entry, moved, tg], { ...base, orderId: 'GTT-2', leg: 'stopLoss', triggerPrice: 98_50 })).toEqual({ kind: 'applied', venueStatus: 'PENDING' });
    expect(smartModifyShown([entry, sl, { ...tg, tgtTriggerPrice: 105_00, price: 105_00 }], { ...base, orderId: 'GTT-3', leg: 'target', triggerPrice: 105_00, limitPrice: 105_00 }).kind).toBe('applied');
    expect(smartModifyShown([{ ...entry, qty: 12, price: 99_50 }, sl, tg], { ...base, orderId: 'SMT-1', leg: 'entry', qty: 12, limitPrice: 99_50 }).kind).toBe('applied');
  });

  it('is pending while a working part shows the old values, and refused once the part finished without them', () => {
    const req = { ...base, orderId: 'GTT-2', leg: 'stopLoss' as const, triggerPrice: 98_50 };
    expect(smartModifyShown([entry, sl, tg], req)).toEqual({ kind: 'pending' });
    expect(smartModifyShown([entry, { ...sl, status: 'FILLED', venueStatus: 'TRADED' }, tg], req)).toEqual({ kind: 'refused', reason: 'order GTT-2 is TRADED; the modification was not applied' });
  });

  it('cannot be decided from the book for an entry trigger alone, or for a part the book does not list', () => {
    expect(smartModifyShown([entry, sl, tg], { ...base, orderId: 'SMT-1', leg: 'entry', triggerPrice: 101_00 })).toEqual({ kind: 'undecidable', reason: "the order book does not show an entry's trigger" });
    expect(smartModifyShown([entry, tg], { ...base, orderId: 'GTT-2', leg: 'stopLoss', triggerPrice: 98_50 })).toEqual({ kind: 'undecidable', reason: 'the order book does not list order GTT-2' });
    expect(smartCancelShown([entry, sl], { ...base, orderId: 'GTT-3', leg: 'target' }).kind).toBe('undecidable');
  });
});

describe('smart-order cancel after a lost answer', () => {
  it('of the entry id is applied only when the entry and every leg are finished', () => {
    const req = { ...base, orderId: 'SMT-1', leg: 'entry' as const };
    const cancelled = (p: OrderRecord): OrderRecord => ({ ...p, status: 'CANCELLED', venueStatus: 'CANCELLED' });
    expect(smartCancelShown([cancelled(entry), sl, tg], req)).toEqual({ kind: 'pending' });
    expect(smartCancelShown([cancelled(entry), cancelled(sl), cancelled(tg)], req)).toEqual({ kind: 'applied', venueStatus: 'CANCELLED' });
  });

  it('of a leg id looks at that leg only', () => {
    const req = { ...base, orderId: 'GTT-3', leg: 'target' as const };
    expect(smartCancelShown([entry, sl, tg], req)).toEqual({ kind: 'pending' });
    expect(smartCancelShown([entry, sl, { ...tg, status: 'CANCELLED', venueStatus: 'CANCELLED' }], req).kind).toBe('applied');
  });
});
