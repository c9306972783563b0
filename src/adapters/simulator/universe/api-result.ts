/**
 * The outcome of a simulator data request, as plain data: either the `data` member of a success
 * envelope, or everything the HTTP layer needs to write an error answer. The data modules never
 * throw for bad client input, so the server only serialises and the rules live in one place.
 */

/** The broker's error types (wire-gaps "Conventions"). */
export type ApiErrorType = 'InputException' | 'DataException' | 'NotFoundException';

/**
 * A client error. Contracts endpoints (spec 7.3) answer `{message, debug_info}` with `message` the
 * category (`Bad Request`, `Not Supported`); other data endpoints use the general envelope
 * `{status:"error", message, error_code, error_type}` and add `debug_info` (wire-gaps candles).
 */
export interface ApiError {
  readonly httpStatus: 400 | 404;
  /** Category for contracts endpoints (`Bad Request`, `Not Supported`); a sentence elsewhere. */
  readonly message: string;
  /** The specific detail, naming the offending parameter. */
  readonly debugInfo: string;
  readonly errorType: ApiErrorType;
  /** The parameter at fault, for logs and tests. */
  readonly param?: string;
}

export type ApiResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: ApiError };

/** A query string or JSON body as the server received it: values are raw strings. */
export type RawQuery = Readonly<Record<string, string | undefined>>;

export function ok<T>(data: T): ApiResult<T> {
  return { ok: true, data };
}

export function badRequest(debugInfo: string, param?: string, errorType: ApiErrorType = 'InputException'): { ok: false; error: ApiError } {
  return { ok: false, error: { httpStatus: 400, message: 'Bad Request', debugInfo, errorType, ...(param ? { param } : {}) } };
}

export function notSupported(debugInfo: string, param?: string): { ok: false; error: ApiError } {
  return { ok: false, error: { httpStatus: 400, message: 'Not Supported', debugInfo, errorType: 'InputException', ...(param ? { param } : {}) } };
}

/** Body of a contracts-endpoint error (spec 7.3): `{message, debug_info}`. */
export function contractsErrorBody(e: ApiError): { message: string; debug_info: string } {
  return { message: e.message, debug_info: e.debugInfo };
}

/**
 * Body of a general error (spec 7.2 + wire-gaps): both `error_code` and `error_type` carry the
 * type, and `debug_info` the detail.
 */
export function generalErrorBody(e: ApiError): { status: 'error'; message: string; error_code: string; error_type: string; debug_info: string } {
  return { status: 'error', message: e.message, error_code: e.errorType, error_type: e.errorType, debug_info: e.debugInfo };
}
