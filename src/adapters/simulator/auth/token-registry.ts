/**
 * Access tokens per spec 3.2: each lives 24 h from generation; a dashboard token and at most one
 * TOTP-generated token can be live together (a new TOTP token replaces only the previous TOTP
 * token); revoke and TOTP disable kill tokens at once. Dead tokens are remembered with the reason
 * so the 403 can say why (a client needs to know whether regenerating will help).
 */
import type { Clock } from '../../../core/clock.js';
import { registerSecret } from '../../../core/log.js';
import { randomToken } from './credentials.js';

export const TOKEN_LIFETIME_MS = 24 * 3_600_000;

export const TokenKind = { DASHBOARD: 'dashboard', TOTP: 'totp' } as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export const TokenDeath = {
  UNKNOWN: 'unknown',
  EXPIRED: 'expired',
  REPLACED: 'replaced',
  REVOKED: 'revoked',
} as const;
export type TokenDeath = (typeof TokenDeath)[keyof typeof TokenDeath];

export interface TokenRecord {
  readonly token: string;
  readonly kind: TokenKind;
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** Set once the token is dead for a reason other than age. */
  death?: Exclude<TokenDeath, 'unknown' | 'expired'>;
}

export type TokenCheck =
  | { readonly ok: true; readonly record: TokenRecord }
  | { readonly ok: false; readonly reason: TokenDeath; readonly message: string };

export type TokenKilledListener = (tokens: readonly string[], reason: TokenDeath) => void;

export class TokenRegistry {
  private readonly records = new Map<string, TokenRecord>();
  private liveTotp: TokenRecord | undefined;
  private readonly listeners = new Set<TokenKilledListener>();

  constructor(
    private readonly clock: Clock,
    private readonly lifetimeMs = TOKEN_LIFETIME_MS,
  ) {
    if (!(lifetimeMs > 0)) throw new RangeError(`TokenRegistry: lifetimeMs must be > 0, got ${lifetimeMs}`);
  }

  /** A dashboard-style token (does not replace anything). */
  issueDashboard(): TokenRecord {
    return this.issue(TokenKind.DASHBOARD);
  }

  /** A TOTP token; the previous TOTP token (only that one) becomes `replaced`. */
  issueTotp(): TokenRecord {
    const prev = this.liveTotp;
    const rec = this.issue(TokenKind.TOTP);
    if (prev && !prev.death) {
      prev.death = TokenDeath.REPLACED;
      this.emit([prev.token], TokenDeath.REPLACED);
    }
    this.liveTotp = rec;
    return rec;
  }

  check(token: string | undefined): TokenCheck {
    if (!token) return { ok: false, reason: TokenDeath.UNKNOWN, message: 'Authorization header is missing: send the access token as its value, with no scheme' };
    const rec = this.records.get(token);
    if (!rec) return { ok: false, reason: TokenDeath.UNKNOWN, message: 'Invalid access token' };
    if (rec.death === TokenDeath.REPLACED) return { ok: false, reason: rec.death, message: 'Access token was replaced by a newer TOTP-generated token' };
    if (rec.death === TokenDeath.REVOKED) return { ok: false, reason: rec.death, message: 'Access token was revoked' };
    if (this.clock.now() >= rec.expiresAt) return { ok: false, reason: TokenDeath.EXPIRED, message: 'Access token expired (tokens live 24 hours); generate a new one' };
    return { ok: true, record: rec };
  }

  /** Revokes one token, or every live token when none is named. Returns the tokens killed. */
  revoke(token?: string): string[] {
    const killed: string[] = [];
    for (const rec of this.records.values()) {
      if (token !== undefined && rec.token !== token) continue;
      if (rec.death || this.clock.now() >= rec.expiresAt) continue;
      rec.death = TokenDeath.REVOKED;
      killed.push(rec.token);
    }
    if (killed.length > 0) this.emit(killed, TokenDeath.REVOKED);
    return killed;
  }

  /** Called with every token that dies by replacement or revocation (WS connections close on it). */
  onKilled(listener: TokenKilledListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private issue(kind: TokenKind): TokenRecord {
    const now = this.clock.now();
    const rec: TokenRecord = { token: randomToken(32), kind, issuedAt: now, expiresAt: now + this.lifetimeMs };
    registerSecret(rec.token);
    this.records.set(rec.token, rec);
    return rec;
  }

  private emit(tokens: readonly string[], reason: TokenDeath): void {
    for (const l of this.listeners) l(tokens, reason);
  }
}
