/**
 * The broker's order status spellings (wire-gaps "Status values") and their mapping onto tarang's
 * normalised `OrderStatus`. The simulator writes these strings on the wire; the engine's own
 * records carry both so nobody has to guess one from the other.
 */
import { OrderStatus } from '../../../core/enums.js';

export const VenueStatus = {
  QUEUED: 'QUEUED',
  O_PENDING: 'O-PENDING',
  SL_PENDING: 'SL-PENDING',
  PROCESSING: 'PROCESSING',
  INITIATED: 'INITIATED',
  /** A smart-order leg waiting for its entry to fill. */
  PENDING: 'PENDING',
  SUCCESS: 'SUCCESS',
  PARTIALLY_FILLED: 'PARTIALLY FILLED',
  MODIFIED: 'MODIFIED',
  CANCELLED: 'CANCELLED',
  PARTIALLY_FILLED_CANCELLED: 'PARTIALLY FILLED - CANCELLED',
  EXPIRED: 'EXPIRED',
  PARTIALLY_FILLED_EXPIRED: 'PARTIALLY FILLED - EXPIRED',
  FAILED: 'FAILED',
  ABORTED: 'ABORTED',
} as const;
export type VenueStatus = (typeof VenueStatus)[keyof typeof VenueStatus];

/** Smart-order (GTT) states. `CREATED` is what placement answers (wire-gaps "Smart orders"). */
export const SmartStatus = {
  /** Entry working (or waiting for its trigger); legs dormant. */
  CREATED: 'CREATED',
  /** Entry filled; stop-loss and target legs armed as an OCO pair. */
  ACTIVE: 'ACTIVE',
  /** A leg filled (the other was cancelled), or the entry filled with no legs. */
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
  EXPIRED: 'EXPIRED',
  FAILED: 'FAILED',
} as const;
export type SmartStatus = (typeof SmartStatus)[keyof typeof SmartStatus];

const NORMALISED: Readonly<Record<VenueStatus, OrderStatus>> = {
  QUEUED: OrderStatus.PENDING_NEW,
  PROCESSING: OrderStatus.PENDING_NEW,
  INITIATED: OrderStatus.PENDING_NEW,
  PENDING: OrderStatus.PENDING_NEW,
  'O-PENDING': OrderStatus.OPEN,
  MODIFIED: OrderStatus.OPEN,
  'SL-PENDING': OrderStatus.TRIGGER_PENDING,
  'PARTIALLY FILLED': OrderStatus.PARTIALLY_FILLED,
  SUCCESS: OrderStatus.FILLED,
  CANCELLED: OrderStatus.CANCELLED,
  'PARTIALLY FILLED - CANCELLED': OrderStatus.CANCELLED,
  ABORTED: OrderStatus.CANCELLED,
  EXPIRED: OrderStatus.EXPIRED,
  'PARTIALLY FILLED - EXPIRED': OrderStatus.EXPIRED,
  FAILED: OrderStatus.REJECTED,
};

/**
 * tarang's status for a broker status string. The engine's own records carry an explicit
 * `status` (a dormant smart leg is TRIGGER_PENDING although its text is `PENDING`); this is the
 * context-free mapping a codec uses.
 */
export function normaliseVenueStatus(s: VenueStatus): OrderStatus {
  return NORMALISED[s];
}

export function isVenueStatus(s: string): s is VenueStatus {
  return Object.prototype.hasOwnProperty.call(NORMALISED, s);
}
