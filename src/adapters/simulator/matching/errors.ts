/**
 * Errors the matching engine throws for requests the broker would refuse outright (an error
 * envelope, nothing recorded). Business rejections of a well-formed order (insufficient funds,
 * outside the circuit band) are not thrown: the order is recorded as FAILED with `extraInfo`,
 * as the live order book shows them.
 */
import { TarangError } from '../../../core/errors.js';

/** The broker's error types (wire-gaps "Conventions"); the server copies it to `error_type`. */
export const VenueErrorType = {
  INPUT: 'InputException',
  ORDER: 'OrderException',
  NOT_FOUND: 'NotFoundException',
} as const;
export type VenueErrorType = (typeof VenueErrorType)[keyof typeof VenueErrorType];

/** Malformed or impossible request: unknown instrument, off-tick price, lot size, reserved remarks. */
export class VenueInputError extends TarangError {
  readonly code = 'SIM_INPUT' as const;
  readonly errorType = VenueErrorType.INPUT;
}

/** A request the order rules refuse: the 26th modification, modifying a finished order, ... */
export class VenueOrderError extends TarangError {
  readonly code = 'SIM_ORDER' as const;
  readonly errorType = VenueErrorType.ORDER;
}

/** No order (or smart order) with that id. */
export class VenueNotFoundError extends TarangError {
  readonly code = 'SIM_NOT_FOUND' as const;
  readonly errorType = VenueErrorType.NOT_FOUND;
}

export type VenueError = VenueInputError | VenueOrderError | VenueNotFoundError;

export function isVenueError(e: unknown): e is VenueError {
  return e instanceof VenueInputError || e instanceof VenueOrderError || e instanceof VenueNotFoundError;
}
