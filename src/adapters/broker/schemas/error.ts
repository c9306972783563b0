/**
 * Every error body the broker is known to send (spec 7, wire-gaps "Conventions"), mapped to one
 * coded class:
 *   {"status":"error","message":"...","error_type":"InputException"}   (or error_code, or both)
 *   {"message":"...","success":false}
 *   {"message":"Bad Request","debug_info":"..."}                        (contracts endpoints)
 *   {"error":"Rate limit exceeded","success":false}                     (429)
 * and non-JSON bodies (a proxy's HTML page). The type named in the body wins; without one the
 * HTTP status decides.
 */
import {
  BrokerErrorType,
  DataException,
  InputException,
  NetworkException,
  NotFoundException,
  OrderException,
  RateLimited,
  TokenException,
  UserException,
  type BrokerError,
  type BrokerErrorContext,
} from '../errors.js';

export interface ErrorBody {
  readonly message: string;
  readonly type?: string;
  readonly debugInfo?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Reads whichever error shape `body` has (parsed JSON, text, or nothing). */
export function readErrorBody(body: unknown): ErrorBody {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const type = str(b['error_type']) ?? str(b['error_code']) ?? str(b['errorType']);
    const debugInfo = str(b['debug_info']);
    const message = str(b['message']) ?? str(b['error']) ?? str(b['msg']) ?? debugInfo ?? JSON.stringify(body).slice(0, 200);
    return { message, ...(type ? { type } : {}), ...(debugInfo && debugInfo !== message ? { debugInfo } : {}) };
  }
  if (typeof body === 'string' && body.trim() !== '') return { message: body.trim().slice(0, 200) };
  return { message: '(no body)' };
}

/** The coded error for an HTTP error answer. */
export function errorFromResponse(
  status: number,
  body: unknown,
  endpoint: string,
  extra: { write?: boolean; retryAfterMs?: number } = {},
): BrokerError {
  const e = readErrorBody(body);
  const brokerMessage = e.debugInfo ? `${e.message}: ${e.debugInfo}` : e.message;
  const ctx: BrokerErrorContext = { endpoint, status, brokerMessage, ...(e.type ? { brokerCode: e.type } : {}) };
  const text = `${endpoint} -> HTTP ${status}: ${brokerMessage}`;
  if (status === 429) return new RateLimited(text, { ...ctx, retryAfterMs: extra.retryAfterMs });
  switch (e.type) {
    case BrokerErrorType.TokenException:
      return new TokenException(text, ctx);
    case BrokerErrorType.OrderException:
      return new OrderException(text, ctx);
    case BrokerErrorType.InputException:
    case 'INVALID_INPUT':
      return new InputException(text, ctx);
    case BrokerErrorType.DataException:
      return new DataException(text, ctx);
    case BrokerErrorType.NotFoundException:
      return new NotFoundException(text, ctx);
    case BrokerErrorType.UserException:
      return new UserException(text, ctx);
    case BrokerErrorType.NetworkException:
      return new NetworkException(text, { ...ctx, write: extra.write });
    default:
  }
  if (status === 401 || status === 403) return new TokenException(text, ctx);
  if (status === 404) return new NotFoundException(text, ctx);
  if (status >= 500) return new NetworkException(text, { ...ctx, write: extra.write });
  return new InputException(text, ctx);
}
