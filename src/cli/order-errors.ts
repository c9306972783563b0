/**
 * How a manual order command ends when the order did not go through as asked, each with its own
 * exit code (mapped from the error code in exit-codes.ts), so a script can tell them apart:
 * - 2 NOT_CONFIRMED: nothing was sent (answered no, or no terminal to ask on and no `--yes`);
 * - 3 ORDER_DENIED: a pre-trade risk check refused it; the message carries the check's code;
 * - 4 ORDER_REJECTED: the broker refused it (nothing exists or changed);
 * - 5 ORDER_OUTCOME_UNKNOWN: the answer was lost and the order book did not settle it: look at
 *   `tarang order book` before doing anything again (a write is never resent blindly).
 */
import { TarangError } from '../core/errors.js';

export class NotConfirmed extends TarangError {
  readonly code = 'NOT_CONFIRMED' as const;
}

export class OrderDenied extends TarangError {
  readonly code = 'ORDER_DENIED' as const;
}

export class OrderRejected extends TarangError {
  readonly code = 'ORDER_REJECTED' as const;
}

export class OrderOutcomeUnsettled extends TarangError {
  readonly code = 'ORDER_OUTCOME_UNKNOWN' as const;
}
