/**
 * What one look at the order book says about a write whose answer was lost, as a pure function of
 * the write and the book's records carrying its tag (a smart order's parts all carry the parent's).
 * The owner that looks, and acts on the verdict, is lost-answers.ts.
 */
import { isTerminalStatus } from '../../core/enums.js';
import type { VenueOrderState } from './venue.js';
import type { VenueCall } from './venue-call.js';

export type BookVerdict =
  /** The book shows the write carried out: the order placed, the change made, the order finished. */
  | { readonly kind: 'done'; readonly orderId: string; readonly venueStatus?: string }
  /** The book shows it certainly was not (the order finished without the change). */
  | { readonly kind: 'refused'; readonly reason: string }
  /** The book shows nothing of it yet: look again; after the last look, proof it never arrived. */
  | { readonly kind: 'absent' }
  /** The book cannot show it (the part is not listed, or only an entry trigger changed). */
  | { readonly kind: 'undecidable'; readonly reason: string };

const ABSENT: BookVerdict = { kind: 'absent' };

/** The verdict of one look: `parts` are the book's records with the write's tag (or its smart parent's). */
export function bookVerdict(call: VenueCall, parts: readonly VenueOrderState[]): BookVerdict {
  switch (call.op) {
    case 'place':
    case 'placeSmart': {
      // A placement is its tag in the book (a smart order's entry; its legs carry the same tag).
      const o = parts.find((p) => p.leg === undefined || p.leg === 'entry') ?? parts[0];
      return o ? done(o) : ABSENT;
    }
    case 'modify':
    case 'modifySmart': {
      const o = parts.find((p) => p.orderId === call.req.orderId);
      if (!o) return notListed(call.req.orderId);
      const c = call.change;
      const pairs: Array<[number | undefined, number]> = [];
      if (c.qty !== undefined) pairs.push([o.qty, c.qty]);
      if (c.limitPrice !== undefined) pairs.push([o.limitPrice, c.limitPrice]);
      if (c.triggerPrice !== undefined) {
        // A smart entry's trigger is not in the book; a plain order's may be absent (taken as shown).
        if (call.op === 'modify') pairs.push([o.triggerPrice ?? c.triggerPrice, c.triggerPrice]);
        else if (call.req.leg !== 'entry') pairs.push([o.triggerPrice, c.triggerPrice]);
      }
      if (pairs.length === 0) return { kind: 'undecidable', reason: "the order book does not show an entry's trigger" };
      if (pairs.every(([shown, asked]) => shown === asked)) return done(o);
      if (isTerminalStatus(o.status)) return { kind: 'refused', reason: `order ${o.orderId} is ${o.venueStatus ?? o.status}; the modification was not applied` };
      return ABSENT;
    }
    case 'cancel':
    case 'cancelSmart': {
      const o = parts.find((p) => p.orderId === call.req.orderId);
      if (!o) return notListed(call.req.orderId);
      // Cancelling a smart order's entry cancels its legs: done when every part is finished.
      const parent = o.parentOrderId ?? o.orderId;
      const covered = call.op === 'cancelSmart' && call.req.leg === 'entry' ? parts.filter((p) => p.orderId === o.orderId || p.parentOrderId === parent) : [o];
      return covered.every((p) => isTerminalStatus(p.status)) ? done(o) : ABSENT;
    }
  }
}

function done(o: VenueOrderState): BookVerdict {
  return { kind: 'done', orderId: o.orderId, ...(o.venueStatus !== undefined ? { venueStatus: o.venueStatus } : {}) };
}

/** The book does not list the order at all: it cannot say what happened to it. */
function notListed(orderId: string): BookVerdict {
  return { kind: 'undecidable', reason: `the order book does not list order ${orderId}` };
}
