/**
 * What one look at the order book says about a write whose answer was lost: done, refused
 * (finished without it), absent (look again) or undecidable (the book does not show it). The
 * records are the broker venue's readings of a smart order's book records (venue-codec.ts).
 */
import { describe, expect, it } from 'vitest';
import { bookVerdict } from '../../../src/adapters/execution/lost-answer-verdicts.js';
import type { VenueOrderState } from '../../../src/adapters/execution/venue.js';
import type { VenueCall } from '../../../src/adapters/execution/venue-call.js';

const part = (p: Partial<VenueOrderState> & { orderId: string }): VenueOrderState => ({ qty: 10, filledQty: 0, venueStatus: 'PENDING', status: 'OPEN', tag: 'tr1-1', parentOrderId: 'SMT-1', ts: 0, ...p });
const entry = part({ orderId: 'SMT-1', leg: 'entry', limitPrice: 100_00 });
const sl = part({ orderId: 'GTT-2', leg: 'stopLoss', triggerPrice: 98_00, status: 'TRIGGER_PENDING' });
const tg = part({ orderId: 'GTT-3', leg: 'target', limitPrice: 104_00, triggerPrice: 104_00 });
const base = { tag: 'tr1-1', instrument: 'NSE_2885' };
type Change = { qty?: number; limitPrice?: number; triggerPrice?: number };
const modifySmart = (orderId: string, leg: 'entry' | 'stopLoss' | 'target', change: Change): VenueCall => ({ op: 'modifySmart', change, req: { ...base, orderId, leg, ...change } });
const cancelSmart = (orderId: string, leg: 'entry' | 'stopLoss' | 'target'): VenueCall => ({ op: 'cancelSmart', req: { ...base, orderId, leg } });

describe('a placement after a lost answer', () => {
  it('is done when its tag is in the book (a smart order by its entry), absent otherwise', () => {
    const place: VenueCall = { op: 'placeSmart', req: { ...base, side: 'BUY', qty: 10, entryType: 'LIMIT', limitPrice: 100_00, validity: 'DAY', product: 'CNC' } };
    expect(bookVerdict(place, [sl, entry, tg])).toEqual({ kind: 'done', orderId: 'SMT-1', venueStatus: 'PENDING' });
    expect(bookVerdict(place, [])).toEqual({ kind: 'absent' });
  });
});

describe('a modify after a lost answer', () => {
  it('is done when the part shows every requested field (a leg trigger as its own trigger)', () => {
    expect(bookVerdict(modifySmart('GTT-2', 'stopLoss', { triggerPrice: 98_50 }), [entry, { ...sl, triggerPrice: 98_50 }, tg])).toEqual({ kind: 'done', orderId: 'GTT-2', venueStatus: 'PENDING' });
    expect(bookVerdict(modifySmart('GTT-3', 'target', { triggerPrice: 105_00, limitPrice: 105_00 }), [entry, sl, { ...tg, triggerPrice: 105_00, limitPrice: 105_00 }]).kind).toBe('done');
    expect(bookVerdict(modifySmart('SMT-1', 'entry', { qty: 12, limitPrice: 99_50 }), [{ ...entry, qty: 12, limitPrice: 99_50 }, sl, tg]).kind).toBe('done');
  });

  it('is absent while a working part shows the old values, and refused once the part finished without them', () => {
    const call = modifySmart('GTT-2', 'stopLoss', { triggerPrice: 98_50 });
    expect(bookVerdict(call, [entry, sl, tg])).toEqual({ kind: 'absent' });
    expect(bookVerdict(call, [entry, { ...sl, status: 'FILLED', venueStatus: 'TRADED' }, tg])).toEqual({ kind: 'refused', reason: 'order GTT-2 is TRADED; the modification was not applied' });
  });

  it("cannot be decided for an entry trigger alone, or for a part the book does not list", () => {
    expect(bookVerdict(modifySmart('SMT-1', 'entry', { triggerPrice: 101_00 }), [entry, sl, tg])).toEqual({ kind: 'undecidable', reason: "the order book does not show an entry's trigger" });
    expect(bookVerdict(modifySmart('GTT-2', 'stopLoss', { triggerPrice: 98_50 }), [entry, tg])).toEqual({ kind: 'undecidable', reason: 'the order book does not list order GTT-2' });
    expect(bookVerdict(cancelSmart('GTT-3', 'target'), [entry, sl]).kind).toBe('undecidable');
  });

  it('of a plain order takes an absent trigger as shown (the book may not carry it)', () => {
    const call: VenueCall = { op: 'modify', change: { limitPrice: 99_00, triggerPrice: 98_00 }, req: { tag: 'p1', orderId: 'EQ-9', instrument: 'NSE_2885', orderType: 'STOP_LOSS', limitPrice: 99_00, triggerPrice: 98_00 } };
    expect(bookVerdict(call, [{ orderId: 'EQ-9', tag: 'p1', status: 'TRIGGER_PENDING', limitPrice: 99_00, ts: 0 }]).kind).toBe('done');
  });
});

describe('a cancel after a lost answer', () => {
  it('of the entry id is done only when the entry and every leg are finished', () => {
    const cancelled = (p: VenueOrderState): VenueOrderState => ({ ...p, status: 'CANCELLED', venueStatus: 'CANCELLED' });
    expect(bookVerdict(cancelSmart('SMT-1', 'entry'), [cancelled(entry), sl, tg])).toEqual({ kind: 'absent' });
    expect(bookVerdict(cancelSmart('SMT-1', 'entry'), [cancelled(entry), cancelled(sl), cancelled(tg)])).toEqual({ kind: 'done', orderId: 'SMT-1', venueStatus: 'CANCELLED' });
  });

  it('of a leg id looks at that leg only', () => {
    expect(bookVerdict(cancelSmart('GTT-3', 'target'), [entry, sl, tg])).toEqual({ kind: 'absent' });
    expect(bookVerdict(cancelSmart('GTT-3', 'target'), [entry, sl, { ...tg, status: 'CANCELLED', venueStatus: 'CANCELLED' }]).kind).toBe('done');
  });
});
