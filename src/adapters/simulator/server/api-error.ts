/**
 * Errors the simulator answers with, in the broker's shapes (spec 7, wire-gaps): the general
 * envelope `{status:"error", message, error_code, error_type}` (both code fields, same value),
 * the contracts/historical `{message, debug_info}` form, and the 429 body.
 */
import { TarangError } from '../../../core/errors.js';

export const ErrorType = {
  INPUT: 'InputException',
  TOKEN: 'TokenException',
  USER: 'UserException',
  NOT_FOUND: 'NotFoundException',
  DATA: 'DataException',
  ORDER: 'OrderException',
  NETWORK: 'NetworkException',
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

export type ErrorBody =
  | { readonly kind: 'envelope'; readonly errorType: ErrorType; readonly extra?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'debug'; readonly category: string };

/** Thrown by routes and hooks; the error handler turns it into the wire answer. */
export class SimApiError extends TarangError {
  readonly code = 'SIM_API_ERROR' as const;

  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message, { status });
  }

  /** Wire body of this error. */
  toWire(): Record<string, unknown> {
    if (this.body.kind === 'debug') return { message: this.body.category, debug_info: this.message };
    return { status: 'error', message: this.message, error_code: this.body.errorType, error_type: this.body.errorType, ...this.body.extra };
  }
}

export function inputError(message: string, extra?: Record<string, unknown>): SimApiError {
  return new SimApiError(400, message, { kind: 'envelope', errorType: ErrorType.INPUT, ...(extra ? { extra } : {}) });
}

export function orderError(message: string, status = 400): SimApiError {
  return new SimApiError(status, message, { kind: 'envelope', errorType: ErrorType.ORDER });
}

export function notFound(message: string): SimApiError {
  return new SimApiError(404, message, { kind: 'envelope', errorType: ErrorType.NOT_FOUND });
}

export function dataError(message: string): SimApiError {
  return new SimApiError(400, message, { kind: 'envelope', errorType: ErrorType.DATA });
}

export function tokenError(message: string): SimApiError {
  return new SimApiError(403, message, { kind: 'envelope', errorType: ErrorType.TOKEN });
}

export function userError(status: number, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>): SimApiError {
  return new SimApiError(status, message, { kind: 'envelope', errorType: ErrorType.USER, ...(extra ? { extra } : {}) }, headers);
}

/** Contracts / historical form: `{message: "Bad Request", debug_info: "..."}`. */
export function debugError(message: string, category = 'Bad Request', status = 400): SimApiError {
  return new SimApiError(status, message, { kind: 'debug', category });
}

export const RATE_LIMIT_BODY = Object.freeze({ error: 'Rate limit exceeded', success: false });
