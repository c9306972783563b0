/**
 * The broker's order statuses (spec 3.1, wire-gaps "Status values", one-letter codes on the
 * stream) normalised to tarang's OrderStatus. Unknown spellings are not guessed: `normaliseStatus`
 * returns undefined and the caller raises a DataException naming the value.
 */
import { OrderStatus } from '../../core/enums.js';

const BY_TEXT: Readonly<Record<string, OrderStatus>> = {
  QUEUED: OrderStatus.PENDING_NEW,
  PROCESSING: OrderStatus.PENDING_NEW,
  INITIATED: OrderStatus.PENDING_NEW,
  // A smart-order leg (or an order) waiting to be sent on: not yet working at the exchange.
  PENDING: OrderStatus.PENDING_NEW,
  'O-PENDING': OrderStatus.OPEN,
  OPEN: OrderStatus.OPEN,
  CREATED: OrderStatus.OPEN,
  ACTIVE: OrderStatus.OPEN,
  COMPLETED: OrderStatus.FILLED,
  MODIFIED: OrderStatus.OPEN,
  'SL-PENDING': OrderStatus.TRIGGER_PENDING,
  'TRIGGER PENDING': OrderStatus.TRIGGER_PENDING,
  'TRIGGER-PENDING': OrderStatus.TRIGGER_PENDING,
  'PARTIALLY FILLED': OrderStatus.PARTIALLY_FILLED,
  'PARTIALLY-FILLED': OrderStatus.PARTIALLY_FILLED,
  SUCCESS: OrderStatus.FILLED,
  FILLED: OrderStatus.FILLED,
  COMPLETE: OrderStatus.FILLED,
  TRADED: OrderStatus.FILLED,
  EXECUTED: OrderStatus.FILLED,
  CANCELLED: OrderStatus.CANCELLED,
  CANCELED: OrderStatus.CANCELLED,
  'PARTIALLY FILLED - CANCELLED': OrderStatus.CANCELLED,
  EXPIRED: OrderStatus.EXPIRED,
  'PARTIALLY FILLED - EXPIRED': OrderStatus.EXPIRED,
  FAILED: OrderStatus.REJECTED,
  // Aborted by the broker after acceptance: nothing more will happen to it (as the simulator reads it).
  ABORTED: OrderStatus.CANCELLED,
  REJECTED: OrderStatus.REJECTED,
};

/**
 * One-letter codes seen on the order-update stream (wire-gaps *observed*; never published). Each
 * is the initial of the full status: O/P open or pending, T trigger pending, S success (filled),
 * C cancelled, E expired, R rejected, F failed, A aborted, Q queued, M modified. Kept in one
 * table so a correction is a one-line change.
 */
const BY_LETTER: Readonly<Record<string, OrderStatus>> = {
  Q: OrderStatus.PENDING_NEW,
  O: OrderStatus.OPEN,
  P: OrderStatus.OPEN,
  M: OrderStatus.OPEN,
  T: OrderStatus.TRIGGER_PENDING,
  S: OrderStatus.FILLED,
  C: OrderStatus.CANCELLED,
  E: OrderStatus.EXPIRED,
  R: OrderStatus.REJECTED,
  F: OrderStatus.REJECTED,
  A: OrderStatus.CANCELLED,
};

/**
 * tarang's status for a broker status. A working status with a fill becomes PARTIALLY_FILLED
 * (a MODIFIED order may already be partly filled); a filled status with less than the full
 * quantity stays PARTIALLY_FILLED only when the broker says so.
 */
export function normaliseStatus(raw: string, filledQty = 0): OrderStatus | undefined {
  const key = raw.trim().toUpperCase().replace(/_/g, ' ').replace(/\s+/g, ' ');
  const s = BY_TEXT[key] ?? BY_TEXT[key.replace(/ /g, '-')] ?? (key.length === 1 ? BY_LETTER[key] : undefined);
  if (s === undefined) return undefined;
  if (filledQty > 0 && (s === OrderStatus.OPEN || s === OrderStatus.PENDING_NEW)) return OrderStatus.PARTIALLY_FILLED;
  return s;
}
