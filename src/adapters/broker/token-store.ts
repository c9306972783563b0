/**
 * One broker session per account, shared by every tarang process of that account (the daemon,
 * CLI commands, a backtest download, a second daemon). The broker allows one TOTP token at a time
 * (a new one replaces the old), throttles generation to one a minute and locks it after five wrong
 * codes in 15 minutes, so what one process learns about the session must be what every process
 * knows: the live token, the throttle the broker announced, and the codes it refused.
 *
 * Implementations: `MemoryTokenStore` (one process: tests, the paper demo's embedded simulator),
 * `FileTokenStore` (a 0600 file per account in the state directory, token-store-file.ts) and
 * `RedisTokenStore` (src/adapters/redis/token-store.ts). Times here are wall-clock epoch ms (the
 * one time base all processes on a host share, whatever market clock each one runs on).
 *
 * Protocol (token-manager.ts): read freely; change only while holding the account's lock.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { TarangError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/zod-issues.js';

export class TokenStoreError extends TarangError {
  readonly code = 'TOKEN_STORE_FAILED' as const;
}

const StoredTokenSchema = z
  .object({
    value: z.string().min(1),
    /** Wall time the token was generated. */
    issuedAt: z.number().int(),
    /** Wall time it stops working, as far as the broker's `expires_at` tells. */
    expiresAt: z.number().int().optional(),
  })
  .strict();

const RejectionSchema = z
  .object({
    at: z.number().int(),
    /** Until when no process sends a code with the same credentials (wall ms). */
    until: z.number().int(),
    /** Hash of api key + mpin + TOTP secret: a changed secret gets its own try. */
    fingerprint: z.string().min(1),
    /** A BlockReason of token-manager.ts (wrong_totp, clock_drift, locked, wrong_mpin, ...). */
    reason: z.string().min(1),
    /** Whether the broker counted it toward its lockout (wrong or expired codes). */
    counted: z.boolean(),
    /** The explanation the refused process gave (no secrets: it names variables, not values). */
    message: z.string(),
  })
  .strict();

export const TokenStateSchema = z
  .object({
    token: StoredTokenSchema.optional(),
    /** The broker answered "throttled" until this wall time: no process sends a code before it. */
    throttledUntil: z.number().int().optional(),
    rejections: z.array(RejectionSchema).default([]),
  })
  .strict();

export type StoredToken = z.output<typeof StoredTokenSchema>;
export type StoredRejection = z.output<typeof RejectionSchema>;
export type TokenState = z.output<typeof TokenStateSchema>;

export const EMPTY_TOKEN_STATE: TokenState = Object.freeze({ rejections: [] }) as TokenState;

/** The lock on one account's token generation; `release` is safe to call twice. */
export interface TokenLock {
  release(): Promise<void>;
}

export interface TokenStore {
  /** Where the state lives, for messages (a path or a redis key, never a secret). */
  readonly where: string;
  read(): Promise<TokenState>;
  /** Replaces the state; call only while holding the lock. */
  write(state: TokenState): Promise<void>;
  /**
   * Takes the account's generation lock, or resolves undefined when another process holds it. A
   * lock older than `ttlMs` (its holder died or hung) is taken over.
   */
  tryLock(ttlMs: number): Promise<TokenLock | undefined>;
  close(): Promise<void>;
}

/** The key of one account's session: a hash of the broker URL and the api key (no secret in a name). */
export function accountKey(baseUrl: string, apiKey: string): string {
  return createHash('sha256').update(`${baseUrl.replace(/\/+$/, '')}|${apiKey}`).digest('hex').slice(0, 24);
}

/** Hash of the credentials that make a code: two processes with the same ones get the same answer. */
export function credentialsFingerprint(apiKey: string, mpin: string, totpSecret: string): string {
  return createHash('sha256').update(`${apiKey}|${mpin}|${totpSecret.replace(/=+$/, '').toUpperCase()}`).digest('hex').slice(0, 24);
}

/** Parses stored state, naming where it came from when it is not what tarang writes. */
export function parseTokenState(raw: string, where: string): TokenState {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw new TokenStoreError(`${where}: the shared broker session is not JSON; delete it (tarang makes a new one)`, { where }, { cause: e });
  }
  const r = TokenStateSchema.safeParse(json);
  if (!r.success) throw new TokenStoreError(`${where}: the shared broker session is invalid (${formatZodIssues(r.error, { limit: 1 })}); delete it (tarang makes a new one)`, { where });
  return r.data;
}

/** Drops rejections whose time is over. */
export function liveRejections(state: TokenState, wallNow: number): StoredRejection[] {
  return state.rejections.filter((r) => r.until > wallNow);
}

/** One process only (tests, the embedded simulator of `tarang paper`). */
export class MemoryTokenStore implements TokenStore {
  readonly where = 'memory';
  private state = JSON.stringify(EMPTY_TOKEN_STATE);
  private held: symbol | undefined;
  private heldAt = 0;

  constructor(private readonly now: () => number = () => 0) {}

  async read(): Promise<TokenState> {
    return TokenStateSchema.parse(JSON.parse(this.state));
  }

  async write(state: TokenState): Promise<void> {
    this.state = JSON.stringify(TokenStateSchema.parse(state));
  }

  async tryLock(ttlMs: number): Promise<TokenLock | undefined> {
    if (this.held && this.now() - this.heldAt < ttlMs) return undefined;
    const id = Symbol('lock');
    this.held = id;
    this.heldAt = this.now();
    return {
      release: async () => {
        if (this.held === id) this.held = undefined;
      },
    };
  }

  async close(): Promise<void> {}
}
