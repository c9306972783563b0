/**
 * The access token (spec 3.2, 3.3, 5): a configured token is used as given; with an api key, mpin
 * and TOTP secret a token is generated (`POST /generate/token`) when none is live, renewed before
 * its 24 hours run out, and renewed whenever a call is refused with TokenException. Renewal is
 * single-flight: concurrent callers wait on one generation.
 *
 * Never walking into a lockout: five wrong codes in 15 minutes lock generation, so this manager
 * sends at most one code per renewal and, after a rejected TOTP, stops for good (until `unblock`),
 * reads the broker's message, compares the local clock with the server's `Date` header (a minute
 * of drift breaks every code, spec 5.6) and raises TokenGenerationBlocked saying what to do. The
 * 60-second throttle is respected through the `token` rate category, and a throttle answer (429)
 * is waited out, not counted as a failure.
 */
import * as OTPAuth from 'otpauth';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { registerSecret, type Logger } from '../../core/log.js';
import { formatIst } from '../../core/time.js';
import type { BrokerConfig } from './config.js';
import { TokenException, TokenGenerationBlocked, type BrokerError } from './errors.js';
import type { BrokerHttp, RawResponse, TokenSource } from './http.js';
import { RateCategory } from './rate-categories.js';
import { parseRetryAfter } from './retry-policy.js';
import { GenerateTokenResponseSchema } from './schemas/account.js';
import { decode } from './schemas/common.js';
import { errorFromResponse, readErrorBody } from './schemas/error.js';

export const TOKEN_LIFETIME_MS = 24 * 3_600_000;
/** Drift beyond this makes codes fail (30-s steps; servers accept at most one step of skew). */
export const MAX_CLOCK_DRIFT_MS = 30_000;
const ENDPOINT = 'POST /generate/token';

export const BlockReason = {
  WRONG_TOTP: 'wrong_totp',
  CLOCK_DRIFT: 'clock_drift',
  LOCKED: 'locked',
  WRONG_MPIN: 'wrong_mpin',
  API_KEY: 'api_key',
  TOTP_DISABLED: 'totp_disabled',
  NO_CREDENTIALS: 'no_credentials',
} as const;
export type BlockReason = (typeof BlockReason)[keyof typeof BlockReason];

interface LiveToken {
  readonly value: string;
  /** When we got it (generation time for TOTP tokens). */
  readonly since: number;
  /** Expiry, epoch ms; undefined for a configured token (its age is unknown). */
  readonly expiresAt?: number;
  readonly generated: boolean;
}

export interface TokenManagerOptions {
  readonly config: Pick<BrokerConfig, 'accessToken' | 'apiKey' | 'mpin' | 'totpSecret' | 'renewBeforeMs'>;
  readonly http: BrokerHttp;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Renew proactively on a timer (default true); off for one-shot CLI calls. */
  readonly autoRenew?: boolean;
}

export class TokenManager implements TokenSource {
  private current: LiveToken | undefined;
  private inflight: Promise<string> | undefined;
  private blocked: TokenGenerationBlocked | undefined;
  private renewTimer: TimerHandle | undefined;
  private readonly totp: OTPAuth.TOTP | undefined;
  private closed = false;
  /** Generations that succeeded (for tests and metrics). */
  generations = 0;

  constructor(private readonly options: TokenManagerOptions) {
    const { config } = options;
    registerSecret(config.accessToken);
    registerSecret(config.apiKey);
    registerSecret(config.mpin);
    registerSecret(config.totpSecret);
    if (config.totpSecret) {
      this.totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(config.totpSecret.replace(/=+$/, '').toUpperCase()), algorithm: 'SHA1', digits: 6, period: 30 });
    }
    if (config.accessToken) this.current = { value: config.accessToken, since: options.clock.now(), generated: false };
  }

  /** True when a token can be generated here (api key, mpin and TOTP secret configured). */
  get canGenerate(): boolean {
    return this.totp !== undefined && !!this.options.config.apiKey && !!this.options.config.mpin;
  }

  /** The live token; generates one when none is live or the current one is about to expire. */
  async token(): Promise<string> {
    const t = this.current;
    if (t && !this.dueForRenewal(t)) return t.value;
    if (t && !this.canGenerate) return t.value;
    return this.generateOnce(t?.value);
  }

  /**
   * A call was refused with TokenException while using `rejected`. Another caller may already have
   * renewed (then its token is returned); otherwise one generation is made for everyone waiting.
   */
  async renew(rejected: string): Promise<string> {
    if (this.current && this.current.value !== rejected) return this.current.value;
    if (!this.canGenerate) {
      throw new TokenException(
        'the access token was refused (expired, revoked or replaced) and no TOTP credentials are configured to make a new one: set a fresh TARANG_ACCESS_TOKEN from the dashboard, or configure TARANG_API_KEY, TARANG_MPIN and TARANG_TOTP_SECRET',
        { endpoint: ENDPOINT },
      );
    }
    return this.generateOnce(rejected);
  }

  /** Forces a new token now (the `tarang token` command). */
  async generate(): Promise<string> {
    return this.generateOnce(this.current?.value);
  }

  /** Expiry of the current token, when known. */
  get expiresAt(): number | undefined {
    return this.current?.expiresAt;
  }

  /** Clears a block after the user fixed its cause (new secret, clock synced, lock expired). */
  unblock(): void {
    this.blocked = undefined;
  }

  close(): void {
    this.closed = true;
    this.renewTimer?.cancel();
  }

  private dueForRenewal(t: LiveToken): boolean {
    return t.expiresAt !== undefined && this.options.clock.now() >= this.renewAt(t);
  }

  /** When to renew: `renewBeforeMs` early, but never earlier than half-way through the token's life. */
  private renewAt(t: LiveToken): number {
    const life = (t.expiresAt ?? Infinity) - t.since;
    return (t.expiresAt ?? Infinity) - Math.min(this.options.config.renewBeforeMs, life / 2);
  }

  private generateOnce(replacing: string | undefined): Promise<string> {
    if (this.blocked) return Promise.reject(this.blocked);
    if (this.current && replacing !== undefined && this.current.value !== replacing && !this.dueForRenewal(this.current)) {
      return Promise.resolve(this.current.value);
    }
    if (!this.inflight) {
      this.inflight = this.doGenerate().finally(() => {
        this.inflight = undefined;
      });
    }
    return this.inflight;
  }

  private async doGenerate(): Promise<string> {
    if (!this.canGenerate || !this.totp) {
      throw new TokenGenerationBlocked('no access token is configured and TOTP generation needs TARANG_API_KEY, TARANG_MPIN and TARANG_TOTP_SECRET', {
        endpoint: ENDPOINT,
        reason: BlockReason.NO_CREDENTIALS,
      });
    }
    const { http, clock, logger, config } = this.options;
    // A throttle answer is waited out and asked again; anything else ends this generation.
    for (let throttled = 0; ; throttled++) {
      await http.limiters.acquire(RateCategory.TOKEN);
      const totp = this.totp.generate({ timestamp: clock.now() });
      const res = await http.send(
        { method: 'POST', path: '/generate/token', auth: false, headers: { 'x-api-key': config.apiKey as string }, body: { mpin: config.mpin, totp } },
        undefined,
      );
      if (res.status >= 200 && res.status < 300) {
        const value = decode(GenerateTokenResponseSchema, res.json, ENDPOINT, res.status);
        registerSecret(value);
        const now = clock.now();
        const expiresAt = readExpiresAt(res.json) ?? now + TOKEN_LIFETIME_MS;
        this.current = { value, since: now, expiresAt, generated: true };
        this.generations++;
        this.scheduleRenewal();
        logger.info({ expiresAt: formatIst(expiresAt) }, 'access token generated with TOTP');
        return value;
      }
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], clock.now());
      const reason = rejectionReason(res);
      if (reason === 'throttled' && throttled < 2) {
        const wait = retryAfterMs ?? 60_000;
        logger.warn({ waitMs: wait }, 'token generation throttled (1 per minute); waiting');
        http.limiters.penalise(RateCategory.TOKEN, wait);
        continue;
      }
      const blocked = this.explain(res, reason, retryAfterMs);
      if (blocked) {
        this.blocked = blocked;
        logger.error({ reason: blocked.context['reason'], status: res.status }, blocked.message);
        throw blocked;
      }
      throw errorFromResponse(res.status, res.json ?? res.text, ENDPOINT, { retryAfterMs });
    }
  }

  /** Turns a refusal into the blocking error with advice, or undefined for a transient refusal. */
  private explain(res: RawResponse, reason: string | undefined, retryAfterMs: number | undefined): TokenGenerationBlocked | undefined {
    const body = readErrorBody(res.json ?? res.text);
    const now = this.options.clock.now();
    const serverDate = res.headers['date'] ? Date.parse(String(res.headers['date'])) : NaN;
    const driftMs = Number.isFinite(serverDate) ? now - serverDate : undefined;
    const ctx = { endpoint: ENDPOINT, status: res.status, brokerMessage: body.message, brokerCode: body.type, driftMs, retryAfterMs };
    const lockedUntil = retryAfterMs !== undefined ? ` (about ${Math.ceil(retryAfterMs / 60_000)} min)` : '';
    switch (reason) {
      case BlockReason.WRONG_TOTP:
        if (driftMs !== undefined && Math.abs(driftMs) >= MAX_CLOCK_DRIFT_MS) {
          return new TokenGenerationBlocked(
            `token generation stopped: the TOTP code was rejected and this machine's clock is ${Math.round(Math.abs(driftMs) / 1000)} s ${driftMs > 0 ? 'ahead of' : 'behind'} the broker's (its Date header); every code will fail until the clock is synced (enable NTP: timedatectl set-ntp true). No further codes were sent, to avoid a lockout. Broker said: ${body.message}`,
            { ...ctx, reason: BlockReason.CLOCK_DRIFT },
          );
        }
        return new TokenGenerationBlocked(
          `token generation stopped: the TOTP code was rejected although the clock agrees with the broker's${driftMs !== undefined ? ` (drift ${Math.round(driftMs / 1000)} s)` : ''}; the TOTP secret is probably wrong or was re-enrolled. Check TARANG_TOTP_SECRET against the dashboard. No further codes were sent, to avoid a lockout. Broker said: ${body.message}`,
          { ...ctx, reason: BlockReason.WRONG_TOTP },
        );
      case BlockReason.LOCKED:
      case 'locked_now':
        return new TokenGenerationBlocked(
          `token generation is locked after repeated wrong TOTP codes${lockedUntil}; wait for the lock to end (attempts while locked do not help) and check the TOTP secret and the clock. A live token keeps working until it expires. Broker said: ${body.message}`,
          { ...ctx, reason: BlockReason.LOCKED },
        );
      case BlockReason.WRONG_MPIN:
        return new TokenGenerationBlocked(`token generation refused: the mpin is wrong; check TARANG_MPIN. Broker said: ${body.message}`, { ...ctx, reason: BlockReason.WRONG_MPIN });
      case BlockReason.API_KEY:
        return new TokenGenerationBlocked(`token generation refused: the api key is not accepted; check TARANG_API_KEY on the dashboard. Broker said: ${body.message}`, { ...ctx, reason: BlockReason.API_KEY });
      case BlockReason.TOTP_DISABLED:
        return new TokenGenerationBlocked(`token generation refused: TOTP is not enabled for this account; enrol it on the website, then set TARANG_TOTP_SECRET. Broker said: ${body.message}`, { ...ctx, reason: BlockReason.TOTP_DISABLED });
      default:
        return undefined;
    }
  }

  private scheduleRenewal(): void {
    if (this.options.autoRenew === false || this.closed) return;
    const t = this.current;
    if (!t?.expiresAt) return;
    this.renewTimer?.cancel();
    const due = this.renewAt(t) - this.options.clock.now();
    this.renewTimer = this.options.clock.setTimeout(() => {
      if (this.closed || this.current !== t) return;
      this.generateOnce(t.value).catch((e: BrokerError) => this.options.logger.error({ err: e }, 'scheduled token renewal failed'));
    }, Math.max(0, due));
  }
}

function readExpiresAt(json: unknown): number | undefined {
  const d = (json as { data?: { expires_at?: unknown } } | undefined)?.data?.expires_at;
  const n = typeof d === 'number' ? d : typeof d === 'string' ? Number(d) : NaN;
  return Number.isFinite(n) && n > 1e11 ? n : undefined;
}

/**
 * Which refusal this is. The spec leaves codes unstated ("read the error response rather than
 * hard-code"), so an explicit `reason` is used when sent, then the status, then the message.
 */
export function rejectionReason(res: Pick<RawResponse, 'status' | 'json' | 'text'>): string | undefined {
  const r = (res.json as { reason?: unknown } | undefined)?.reason;
  if (typeof r === 'string' && r) return r;
  const msg = readErrorBody(res.json ?? res.text).message.toLowerCase();
  if (res.status === 423 || /lock/.test(msg)) return BlockReason.LOCKED;
  if (res.status === 429 || /throttl|per minute|too (many|soon|frequent)/.test(msg)) return 'throttled';
  if (/mpin/.test(msg)) return BlockReason.WRONG_MPIN;
  if (/totp|otp|code/.test(msg) && /disabled|not enabled/.test(msg)) return BlockReason.TOTP_DISABLED;
  if (/totp|otp/.test(msg)) return BlockReason.WRONG_TOTP;
  if (/api.?key/.test(msg)) return BlockReason.API_KEY;
  return undefined;
}
