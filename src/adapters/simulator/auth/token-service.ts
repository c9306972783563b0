/**
 * `POST /generate/token` as a pure decision over the account's state: api key, lockout gate,
 * mpin, TOTP code (RFC 6238, SHA-1, 6 digits, 30 s), then a new TOTP token. Each rejection carries
 * what a client needs to tell the cases apart.
 *
 * Two clocks: codes are checked against the wall clock, because that is what the holder's
 * authenticator app shows whatever market time the simulator plays (09:15 at start, moved by
 * `--speed` and `POST /sim/clock`); the lockout, the throttle and token lifetimes are the
 * broker's rules and run on the market clock with everything else.
 */
import { Secret, TOTP } from 'otpauth';
import type { Clock } from '../../../core/clock.js';
import { formatIst } from '../../../core/time.js';
import type { SimCredentials } from './credentials.js';
import type { TokenRecord, TokenRegistry } from './token-registry.js';
import type { TotpLockout } from './totp-lockout.js';

export const TokenRejection = {
  API_KEY: 'api_key',
  TOTP_DISABLED: 'totp_disabled',
  LOCKED: 'locked',
  THROTTLED: 'throttled',
  WRONG_MPIN: 'wrong_mpin',
  WRONG_TOTP: 'wrong_totp',
  LOCKED_NOW: 'locked_now',
} as const;
export type TokenRejection = (typeof TokenRejection)[keyof typeof TokenRejection];

export type TokenOutcome =
  | { readonly ok: true; readonly record: TokenRecord }
  | {
      readonly ok: false;
      readonly reason: TokenRejection;
      readonly message: string;
      /** Epoch ms when a retry can succeed (locks, throttle). */
      readonly retryAt?: number;
      /** Wrong codes still allowed before a lock. */
      readonly attemptsRemaining?: number;
    };

export interface TokenRequest {
  readonly apiKey: string | undefined;
  readonly mpin: string;
  readonly totp: string;
}

/** Drift tolerance: one 30-s step either side; a minute or more of drift fails (spec 5.6). */
const TOTP_WINDOW = 1;

export class TokenService {
  private totpSecret: Secret | undefined;

  constructor(
    private readonly clock: Clock,
    /** What an authenticator shows (src/core/clock.ts WallClock outside tests). */
    private readonly wallClock: Clock,
    private readonly creds: SimCredentials,
    private readonly tokens: TokenRegistry,
    private readonly lockout: TotpLockout,
  ) {
    this.totpSecret = Secret.fromBase32(creds.totpSecret);
  }

  get totpEnabled(): boolean {
    return this.totpSecret !== undefined;
  }

  /** Dashboard "disable TOTP": the secret is deleted and every live token revoked (spec 3.2). */
  disableTotp(): string[] {
    this.totpSecret = undefined;
    return this.tokens.revoke();
  }

  /** Dashboard re-enrolment: a fresh secret, shown once. */
  enableTotp(base32: string): void {
    this.totpSecret = Secret.fromBase32(base32);
  }

  /** The code the holder's authenticator shows now, on the wall clock (tests and the CLI use it). */
  currentCode(offsetMs = 0): string {
    if (!this.totpSecret) throw new Error('TOTP is disabled');
    return TOTP.generate({ secret: this.totpSecretObj(), algorithm: 'SHA1', digits: 6, period: 30, timestamp: this.wallClock.now() + offsetMs });
  }

  generate(req: TokenRequest): TokenOutcome {
    if (req.apiKey === undefined || req.apiKey === '') {
      return { ok: false, reason: TokenRejection.API_KEY, message: 'x-api-key header is missing' };
    }
    if (req.apiKey !== this.creds.apiKey) return { ok: false, reason: TokenRejection.API_KEY, message: 'x-api-key is not a known api key' };
    if (!this.totpSecret) {
      return { ok: false, reason: TokenRejection.TOTP_DISABLED, message: 'TOTP is not enabled for this account; enable it on the dashboard' };
    }
    const gate = this.lockout.gate();
    const now = this.clock.now();
    if (gate.state === 'locked') {
      return {
        ok: false,
        reason: TokenRejection.LOCKED,
        retryAt: gate.until,
        message: `Token generation is locked until ${formatIst(gate.until)} (${secondsUntil(gate.until, now)} s) after repeated wrong TOTP codes`,
      };
    }
    if (gate.state === 'throttled') {
      return {
        ok: false,
        reason: TokenRejection.THROTTLED,
        retryAt: gate.until,
        message: `Token generation is throttled to 1 per minute: retry after ${secondsUntil(gate.until, now)} s`,
      };
    }
    if (req.mpin !== this.creds.mpin) return { ok: false, reason: TokenRejection.WRONG_MPIN, message: 'Invalid mpin' };
    const delta = TOTP.validate({
      token: req.totp,
      secret: this.totpSecretObj(),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: this.wallClock.now(),
      window: TOTP_WINDOW,
    });
    if (delta === null) {
      const f = this.lockout.recordFailure();
      if (f.state === 'locked') {
        return {
          ok: false,
          reason: TokenRejection.LOCKED_NOW,
          retryAt: f.until,
          attemptsRemaining: 0,
          message: `Invalid or expired TOTP; too many wrong codes: token generation is locked until ${formatIst(f.until)} (${secondsUntil(f.until, now)} s)`,
        };
      }
      return {
        ok: false,
        reason: TokenRejection.WRONG_TOTP,
        attemptsRemaining: f.remaining,
        message: `Invalid or expired TOTP; ${f.remaining} attempt(s) remaining before a lockout`,
      };
    }
    this.lockout.recordSuccess();
    return { ok: true, record: this.tokens.issueTotp() };
  }

  private totpSecretObj(): Secret {
    if (!this.totpSecret) throw new Error('TOTP is disabled');
    return this.totpSecret;
  }
}

function secondsUntil(ts: number, now: number): number {
  return Math.max(1, Math.ceil((ts - now) / 1000));
}
