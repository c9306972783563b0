/**
 * The broker's failures as coded classes (spec 7.5, wire-gaps "Error types"). Every one carries
 * the endpoint, the HTTP status and the broker's own message in `context`, and says whether
 * repeating the same request is safe (`retrySafe`): a read is idempotent, so a network error on a
 * read is retry-safe; nothing about a write is, because the order may already exist.
 */
import { TarangError, type ErrorContext } from '../../core/errors.js';

export interface BrokerErrorContext extends ErrorContext {
  /** `METHOD /path`, e.g. `GET /funds`. */
  readonly endpoint?: string;
  readonly status?: number;
  /** The broker's message text (and `debug_info` when given). */
  readonly brokerMessage?: string;
  /** The broker's error type as sent (`error_type` or `error_code`). */
  readonly brokerCode?: string;
}

export abstract class BrokerError extends TarangError {
  declare readonly context: BrokerErrorContext;
  /** true when sending the very same request again cannot do harm. */
  abstract readonly retrySafe: boolean;
}

/** The token is invalid, expired, replaced or revoked (HTTP 403, sometimes 401). Renew, then retry. */
export class TokenException extends BrokerError {
  readonly code = 'BROKER_TOKEN' as const;
  readonly retrySafe = true;
}

/** The broker refused an order (margin, modification cap, leg bounds, risk checks). */
export class OrderException extends BrokerError {
  readonly code = 'BROKER_ORDER' as const;
  readonly retrySafe = false;
}

/** A request parameter was wrong (invalid security_id, bad interval, bad dates). */
export class InputException extends BrokerError {
  readonly code = 'BROKER_INPUT' as const;
  readonly retrySafe = false;
}

/**
 * The data was unusable: the broker said so (invalid instrument tokens), or its answer did not
 * decode as promised (the message names the endpoint and the field).
 */
export class DataException extends BrokerError {
  readonly code = 'BROKER_DATA' as const;
  readonly retrySafe = false;
}

/**
 * No usable answer: connection refused or reset, timeout, 5xx. `retrySafe` is true for reads; for
 * a write it is false, because the broker may have acted before the answer was lost.
 */
export class NetworkException extends BrokerError {
  readonly code = 'BROKER_NETWORK' as const;
  readonly retrySafe: boolean;
  constructor(message: string, context: BrokerErrorContext & { readonly write?: boolean }, options?: { cause?: unknown }) {
    super(message, context, options);
    this.retrySafe = context.write !== true;
  }
}

/** HTTP 429 that outlived the retry budget. Normally absorbed by the client, never a crash. */
export class RateLimited extends BrokerError {
  readonly code = 'BROKER_RATE_LIMITED' as const;
  readonly retrySafe = true;
  /** How long the broker asked to wait, ms (Retry-After), when it said. */
  get retryAfterMs(): number | undefined {
    const v = this.context['retryAfterMs'];
    return typeof v === 'number' ? v : undefined;
  }
}

/** The thing asked for does not exist (unknown order id). */
export class NotFoundException extends BrokerError {
  readonly code = 'BROKER_NOT_FOUND' as const;
  readonly retrySafe = false;
}

/** The account cannot do this (not onboarded for the segment, static IP not whitelisted, TOTP off). */
export class UserException extends BrokerError {
  readonly code = 'BROKER_USER' as const;
  readonly retrySafe = false;
}

/**
 * Token generation refused in a way a retry would make worse: a rejected TOTP (counted toward a
 * lockout), an active lockout, a wrong mpin, or a clock too far from the server's. The message says
 * what the user must do; `context.reason` says which case it is.
 */
export class TokenGenerationBlocked extends BrokerError {
  readonly code = 'BROKER_TOKEN_GENERATION_BLOCKED' as const;
  readonly retrySafe = false;
}

export const BrokerErrorType = {
  TokenException: 'TokenException',
  OrderException: 'OrderException',
  InputException: 'InputException',
  DataException: 'DataException',
  NetworkException: 'NetworkException',
  NotFoundException: 'NotFoundException',
  UserException: 'UserException',
} as const;
export type BrokerErrorType = (typeof BrokerErrorType)[keyof typeof BrokerErrorType];
