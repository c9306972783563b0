/**
 * The REST transport: one undici Pool (keep-alive) per broker host, the category rate limiters,
 * the token, error mapping and the retry policy for reads. Writes pass through exactly once: a
 * write that loses its answer surfaces as NetworkException(write), which the client reports as an
 * unknown outcome for the execution layer to settle from the order book (lost-answers.ts). This
 * layer repeats a write only after an answer that says the broker did not act on it (429 refused
 * before processing, 403 token refused): an answer, not a lost one.
 */
import { Pool, errors as undiciErrors } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { BrokerConfig } from './config.js';
import { BrokerError, NetworkException, RateLimited, TokenException } from './errors.js';
import { categoryOf, type RateCategory } from './rate-categories.js';
import type { RateLimiters } from './rate-limiter.js';
import { backoffDelay, parseRetryAfter, type RetryPolicy } from './retry-policy.js';
import { decodeData } from './schemas/common.js';
import { errorFromResponse } from './schemas/error.js';

export interface TokenSource {
  /** A live token (generating one when needed). */
  token(): Promise<string>;
  /** `rejected` was refused with TokenException: renew (single-flight) and return the new one. */
  renew(rejected: string): Promise<string>;
}

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  /** Default true: sends `Authorization`. */
  readonly auth?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  /** A write (place/modify/cancel/smart): never repeated by the retry policy. */
  readonly write?: boolean;
  /** Override of the rate category derived from the path. */
  readonly category?: RateCategory;
  /** A new order: also waits for the per-exchange-segment budget (`NSE FNO`, retail-algo.ts). */
  readonly exchangeSegment?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  readonly json: unknown;
}

export interface HttpStats {
  requests: number;
  retries: number;
  rateLimited: number;
  tokenRenewals: number;
}

export interface BrokerHttpOptions {
  readonly config: BrokerConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limiters: RateLimiters;
  readonly tokens?: TokenSource;
  /** Randomness for jitter (tests pass a fixed one). */
  readonly random?: () => number;
}

export class BrokerHttp {
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly policy: RetryPolicy;
  private tokens: TokenSource | undefined;
  readonly stats: HttpStats = { requests: 0, retries: 0, rateLimited: 0, tokenRenewals: 0 };
  /** The broker's `Date` header of the last answer and our clock when it came (see serverNow). */
  private lastDate: { readonly server: number; readonly local: number } | undefined;

  constructor(private readonly options: BrokerHttpOptions) {
    const { config } = options;
    const url = new URL(config.baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.policy = config.retry;
    this.tokens = options.tokens;
    this.pool = new Pool(url.origin, {
      connections: config.connections,
      keepAliveTimeout: 30_000,
      headersTimeout: config.timeouts.requestMs,
      bodyTimeout: config.timeouts.requestMs,
      connect: { timeout: config.timeouts.connectMs },
      ...(config.localAddress ? { localAddress: config.localAddress } : {}),
    });
  }

  setTokenSource(tokens: TokenSource): void {
    this.tokens = tokens;
  }

  get limiters(): RateLimiters {
    return this.options.limiters;
  }

  /** Sends a request and decodes `data` of the success envelope with `schema`. */
  async call<T extends z.ZodType>(spec: RequestSpec, schema: T): Promise<z.output<T>> {
    const res = await this.request(spec);
    return decodeData(schema, res.json, endpointName(spec), res.status);
  }

  /**
   * Sends a request with limits, auth and the retry policy; resolves with a 2xx answer or throws
   * the coded error. Reads are retried per policy; writes are sent once (see file comment).
   */
  async request(spec: RequestSpec): Promise<RawResponse> {
    const endpoint = endpointName(spec);
    const category = spec.category ?? categoryOf(spec.method, spec.path);
    const write = spec.write === true;
    let attempt = 0;
    let count429 = 0;
    let tokenRetried = false;
    for (;;) {
      attempt++;
      // The segment first: an order queued behind its segment's threshold holds no account slot.
      const release = spec.exchangeSegment !== undefined ? await this.options.limiters.acquireSegment(spec.exchangeSegment) : undefined;
      let token: string | undefined;
      try {
        await this.options.limiters.acquire(category);
        token = spec.auth === false ? undefined : await this.requireTokens(endpoint).token();
      } catch (e) {
        release?.();
        throw e;
      }
      let res: RawResponse;
      try {
        res = await this.send(spec, token, write);
      } catch (e) {
        const err = this.networkError(e, endpoint, write);
        if (!write && this.policy.retryNetwork && attempt < this.policy.maxAttempts) {
          await this.pause(endpoint, attempt, undefined, err);
          continue;
        }
        throw err;
      } finally {
        // The answer (or the failure) is in: the segment's slot frees a second from now.
        release?.();
      }
      if (res.status >= 200 && res.status < 300) return res;

      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], this.options.clock.now());
      const err = errorFromResponse(res.status, res.json ?? res.text, endpoint, { write, retryAfterMs });

      if (err instanceof RateLimited) {
        // The broker refused before acting: absorb it. Hold the whole category, then try again.
        this.stats.rateLimited++;
        count429++;
        const wait = retryAfterMs ?? backoffDelay(this.policy, count429, undefined, this.options.random);
        this.options.limiters.penalise(category, wait);
        this.options.logger.warn({ endpoint, category, retryAfterMs: wait, count: count429 }, 'broker answered 429; waiting before the next call');
        if (count429 > this.policy.max429 || wait > this.policy.maxRetryAfterMs) throw err;
        continue;
      }
      if (err instanceof TokenException && token !== undefined && this.tokens && !tokenRetried) {
        tokenRetried = true;
        this.stats.tokenRenewals++;
        this.options.logger.info({ endpoint }, 'token refused; renewing');
        await this.tokens.renew(token);
        continue;
      }
      if (!write && err.retrySafe && this.policy.retryStatuses.includes(res.status) && attempt < this.policy.maxAttempts) {
        await this.pause(endpoint, attempt, retryAfterMs, err);
        continue;
      }
      throw err;
    }
  }

  /**
   * The broker's time now as its last `Date` header said (1-s resolution), carried forward on our
   * clock; undefined before the first answer with one. A one-shot command judges the broker's
   * time-of-day rules (the intraday cutoff) by it: the simulator's market clock is not the wall's.
   */
  serverNow(): number | undefined {
    const d = this.lastDate;
    return d === undefined ? undefined : d.server + (this.options.clock.now() - d.local);
  }

  /** One round trip, no policy: for callers (token manager) that must see every answer. */
  async send(spec: RequestSpec, token: string | undefined, write = false): Promise<RawResponse> {
    this.stats.requests++;
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    if (token !== undefined) headers['authorization'] = token;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = write ? this.options.config.timeouts.writeMs : this.options.config.timeouts.requestMs;
    const r = await this.pool.request({
      method: spec.method,
      path: this.prefix + spec.path + queryString(spec.query),
      headers,
      ...(body !== undefined ? { body } : {}),
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    const text = await r.body.text();
    const date = r.headers['date'] ? Date.parse(String(r.headers['date'])) : NaN;
    if (Number.isFinite(date)) this.lastDate = { server: date, local: this.options.clock.now() };
    let json: unknown;
    if (text.length > 0 && (text[0] === '{' || text[0] === '[' || String(r.headers['content-type'] ?? '').includes('json'))) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: r.statusCode, headers: r.headers, text, json };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private requireTokens(endpoint: string): TokenSource {
    if (!this.tokens) throw new TokenException(`${endpoint}: no token source configured`, { endpoint });
    return this.tokens;
  }

  private async pause(endpoint: string, attempt: number, retryAfterMs: number | undefined, err: BrokerError): Promise<void> {
    this.stats.retries++;
    const ms = backoffDelay(this.policy, attempt, retryAfterMs, this.options.random);
    this.options.logger.warn({ endpoint, attempt, delayMs: ms, err: { code: err.code, message: err.message } }, 'read failed; retrying');
    await this.options.clock.sleep(ms);
  }

  private networkError(e: unknown, endpoint: string, write: boolean): BrokerError {
    if (e instanceof BrokerError) return e;
    const timeout = e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e instanceof undiciErrors.ConnectTimeoutError;
    const what = timeout ? 'timed out' : 'failed';
    const detail = e instanceof Error ? `${(e as { code?: string }).code ?? e.name}: ${e.message}` : String(e);
    return new NetworkException(`${endpoint} ${what}${write ? ' (a write: its outcome is unknown until reconciled)' : ''}: ${detail}`, { endpoint, write, timeout }, { cause: e });
  }
}

export function endpointName(spec: Pick<RequestSpec, 'method' | 'path'>): string {
  return `${spec.method} ${spec.path}`;
}

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.append(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
