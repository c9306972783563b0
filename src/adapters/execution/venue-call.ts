/**
 * One venue write as data, and the call that sends it. The router builds these; the lost-answer
 * owner keeps one to look for its effect in the order book and, when the book proves it never
 * arrived, to send it once more (lost-answers.ts).
 */
import type { Paise } from '../../core/money.js';
import type {
  ExecutionVenue,
  VenueCancelRequest,
  VenueModifyRequest,
  VenueOrderRequest,
  VenueResult,
  VenueSmartCancelRequest,
  VenueSmartModifyRequest,
  VenueSmartOrderRequest,
  WriteOutcome,
} from './venue.js';

export interface OrderChange {
  qty?: number;
  limitPrice?: Paise;
  triggerPrice?: Paise;
}

export type VenueCall =
  | { readonly op: 'place'; readonly req: VenueOrderRequest }
  | { readonly op: 'placeSmart'; readonly req: VenueSmartOrderRequest }
  | { readonly op: 'modify'; readonly req: VenueModifyRequest; readonly change: OrderChange }
  | { readonly op: 'modifySmart'; readonly req: VenueSmartModifyRequest; readonly change: OrderChange }
  | { readonly op: 'cancel'; readonly req: VenueCancelRequest }
  | { readonly op: 'cancelSmart'; readonly req: VenueSmartCancelRequest };

export type PlaceCall = Extract<VenueCall, { op: 'place' | 'placeSmart' }>;

/** Sends the call (a switch, not a closure per write: this is the order hot path). */
export function invokeVenue(venue: ExecutionVenue, c: VenueCall): VenueResult<WriteOutcome> {
  switch (c.op) {
    case 'place':
      return venue.place(c.req);
    case 'placeSmart':
      return venue.placeSmart(c.req);
    case 'modify':
      return venue.modify(c.req);
    case 'modifySmart':
      return venue.modifySmart(c.req);
    case 'cancel':
      return venue.cancel(c.req);
    case 'cancelSmart':
      return venue.cancelSmart(c.req);
  }
}

export function isPlaceCall(c: VenueCall): c is PlaceCall {
  return c.op === 'place' || c.op === 'placeSmart';
}
