/**
 * The monotonic merge rule of the order state machine. Updates arrive out of order, duplicated or
 * not at all, from REST answers, the order book and the stream; whatever their order, an order's
 * state only moves forward:
 *
 *   PENDING_NEW -> OPEN | TRIGGER_PENDING -> PARTIALLY_FILLED -> FILLED | CANCELLED | REJECTED | EXPIRED
 *
 * - A terminal state is final: a late OPEN never overwrites FILLED, a late PARTIALLY_FILLED never
 *   reopens CANCELLED (fills that arrive after a cancel still count, in quantities, not in status).
 * - TRIGGER_PENDING -> OPEN is forward (the stop triggered); OPEN -> TRIGGER_PENDING is a stale
 *   update and ignored.
 * - Filled quantity never goes down; when it reaches the order quantity the order is FILLED, and
 *   a non-terminal order with a fill is at least PARTIALLY_FILLED.
 */
import { OrderStatus, isTerminalStatus } from '../../core/enums.js';

const RANK: Readonly<Record<OrderStatus, number>> = {
  PENDING_NEW: 0,
  TRIGGER_PENDING: 1,
  OPEN: 2,
  PARTIALLY_FILLED: 3,
  FILLED: 4,
  CANCELLED: 4,
  REJECTED: 4,
  EXPIRED: 4,
};

/** The status after seeing `next` on an order that was `current`. */
export function mergeStatus(current: OrderStatus, next: OrderStatus): OrderStatus {
  if (isTerminalStatus(current)) return current;
  return RANK[next] > RANK[current] ? next : current;
}

/** Adjusts a status for the filled quantity (never moves a terminal status except to FILLED when fully filled). */
export function statusForFill(status: OrderStatus, filledQty: number, qty: number): OrderStatus {
  if (filledQty >= qty && qty > 0 && status !== OrderStatus.REJECTED) {
    // A venue saying CANCELLED for an order whose fills complete it: the fills are the truth.
    return OrderStatus.FILLED;
  }
  if (filledQty > 0 && !isTerminalStatus(status) && RANK[status] < RANK.PARTIALLY_FILLED) return OrderStatus.PARTIALLY_FILLED;
  return status;
}
