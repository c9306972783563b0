/**
 * The access token (spec 3.2, 3.3, 5): a configured token is used as given; with an api key, mpin
 * and TOTP secret a token is generated (`POST /generate/token`) when none is live, renewed before
 * each trading session's open (the retail-algo framework wants API sessions to start fresh each
 * trading day; a token made at 10:00 must not die at 10:00 the next day mid-session), or before its
 * 24 hours run out when no session comes first, and renewed whenever a call is refused with
 * TokenException. Renewal is single-flight within the process.
 *
 * One session per account across processes (token-store.ts): the broker keeps one TOTP token at a
 * time, so every tarang process of the account reads the token from a shared store and generates
 * only when the stored one is missing, dead or due, under the account's lock; after taking the
 * lock it reads the store again (another process may have just generated). A process whose token
 * was refused re-reads the store before it generates. What the broker says about codes is shared
 * too: a throttle answer (until when), and each refused code (with the credentials' fingerprint).
 *
 * Never walking into a lockout: five wrong codes in 15 minutes lock generation, so no process
 * sends a code with credentials whose code was refused in the last 15 minutes (any number of
 * processes together send at most one wrong code per credentials), none sends while the account
 * is locked, and none sends once MAX_SHARED_WRONG_CODES codes were refused in the window. After a
 * rejected TOTP this manager stops for good (until `unblock`), reads the broker's message, compares
 * the wall clock with the server's `Date` header (a minute of drift breaks every code, spec 5.6;
 * the simulator's shifted market clock is allowed for) and raises TokenGenerationBlocked saying
 * what to do. The 60-second throttle is respected through the `token` rate category, and a
 * throttle answer (429) is waited out, not counted as a failure.
 *
 * Codes come from the wall clock (what the holder's authenticator shows), not the market clock a
 * paper run or a backtest download may be on.
 */
import * as OTPAuth from 'otpauth';
import type { MarketCalendar } from '../../core/calendar.js';
import { WallClock, type Clock, type TimerHandle } from '../../core/clock.js';
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
import { credentialsFingerprint, liveRejections, MemoryTokenStore, type StoredRejection, type TokenState, type TokenStore } from './token-store.js';

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

/** Codes refused in the broker's failure window after which no process sends another (the lock comes at 5). */
export const MAX_SHARED_WRONG_CODES = 3;
/** The broker's rolling window for wrong codes (spec 3.3): a refused code blocks its credentials this long. */
export const WRONG_CODE_WINDOW_MS = 15 * 60_000;
/** Longest a generation may hold the account's lock (throttle waits included) before others take it over. */
export const GENERATION_LOCK_TTL_MS = 3 * 60_000;
/** How often a process waiting for another's generation looks again. */
const LOCK_POLL_MS = 100;
/** Sent by the simulator: its market clock minus the wall clock, so its `Date` is not taken for drift. */
export const SIM_CLOCK_OFFSET_HEADER = 'x-sim-clock-offset-ms';

interface LiveToken {
  readonly value: string;
  /** When it was made (generation time for TOTP tokens), on this process's clock. */
  readonly since: number;
  /** Expiry on this process's clock; undefined for a configured token (its age is unknown). */
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
  /** The account's session shared with other processes (default: this process only). */
  readonly store?: TokenStore;
  /** Wall time: what an authenticator shows, and the time base of the store. Default: the real clock. */
  readonly wallClock?: Clock;
  /** Trading sessions: a generated token is renewed `renewBeforeMs` before each session opens. */
  readonly calendar?: MarketCalendar;
}

type Attempt = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly throttledMs: number };

export class TokenManager implements TokenSource {
  private current: LiveToken | undefined;
  private inflight: Promise<string> | undefined;
  private blocked: TokenGenerationBlocked | undefined;
  /** The last refusal to send a code because of the shared record (another process's refused code, a lock): until when. */
  private sharedBlocked: { readonly error: TokenGenerationBlocked; readonly until: number } | undefined;
  private renewTimer: TimerHandle | undefined;
  private readonly totp: OTPAuth.TOTP | undefined;
  private readonly store: TokenStore;
  private readonly wall: Clock;
  private readonly fingerprint: string | undefined;
  private closed = false;
  /** Generations that succeeded in this process (for tests and metrics). */
  generations = 0;
  /** Tokens taken over from the shared store (generated by another process). */
  adoptions = 0;

  constructor(private readonly options: TokenManagerOptions) {
    const { config } = options;
    registerSecret(config.accessToken);
    registerSecret(config.apiKey);
    registerSecret(config.mpin);
    registerSecret(config.totpSecret);
    this.wall = options.wallClock ?? new WallClock();
    this.store = options.store ?? new MemoryTokenStore(() => this.wall.now());
    if (config.totpSecret) {
      this.totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(config.totpSecret.replace(/=+$/, '').toUpperCase()), algorithm: 'SHA1', digits: 6, period: 30 });
    }
    if (this.totp && config.apiKey && config.mpin && config.totpSecret) this.fingerprint = credentialsFingerprint(config.apiKey, config.mpin, config.totpSecret);
    if (config.accessToken) this.current = { value: config.accessToken, since: options.clock.now(), generated: false };
  }

  /** True when a token can be generated here (api key, mpin and TOTP secret configured). */
  get canGenerate(): boolean {
    return this.totp !== undefined && !!this.options.config.apiKey && !!this.options.config.mpin;
  }

  /** Where the shared session lives (for messages). */
  get storeLocation(): string {
    return this.store.where;
  }

  /** The live token: this process's, else the shared one, else a new one. */
  async token(): Promise<string> {
    const t = this.current;
    if (t && !this.dueForRenewal(t)) return t.value;
    if (t && !this.canGenerate) return t.value;
    return this.acquireOnce(t?.value, false);
  }

  /**
   * A call was refused with TokenException while using `rejected`. Another caller (or process) may
   * already have renewed (then its token is returned); otherwise one generation is made.
   */
  async renew(rejected: string): Promise<string> {
    if (this.current && this.current.value !== rejected) return this.current.value;
    if (!this.canGenerate) {
      throw new TokenException(
        'the access token was refused (expired, revoked or replaced) and no TOTP credentials are configured to make a new one: set a fresh TARANG_ACCESS_TOKEN from the dashboard, or configure TARANG_API_KEY, TARANG_MPIN and TARANG_TOTP_SECRET',
        { endpoint: ENDPOINT },
      );
    }
    return this.acquireOnce(rejected, false);
  }

  /** Forces a new token now (the `tarang token` command); it becomes every process's token. */
  async generate(): Promise<string> {
    return this.acquireOnce(this.current?.value, true);
  }

  /** Expiry of the current token, when known. */
  get expiresAt(): number | undefined {
    return this.current?.expiresAt;
  }

  /**
   * Why token generation is stopped (a rejected code, a lock, a wrong mpin: see BlockReason), or
   * undefined. While set, a refused token cannot be replaced: the daemon alerts on it.
   */
  get blockedReason(): { readonly reason: string; readonly message: string } | undefined {
    const shared = this.sharedBlocked && this.wall.now() < this.sharedBlocked.until ? this.sharedBlocked.error : undefined;
    const b = this.blocked ?? shared;
    return b ? { reason: String(b.context['reason']), message: b.message } : undefined;
  }

  /** Clears a block after the user fixed its cause (new secret, clock synced, lock expired). */
  unblock(): void {
    this.blocked = undefined;
  }

  close(): void {
    this.closed = true;
    this.renewTimer?.cancel();
  }

  /** Closes the shared store too (the owner of the manager calls it once, at the end). */
  async closeStore(): Promise<void> {
    this.close();
    await this.store.close();
  }

  private dueForRenewal(t: LiveToken): boolean {
    return t.expiresAt !== undefined && this.options.clock.now() >= this.renewAt(t);
  }

  /**
   * When to renew: before the first session that opens after the token was made (`renewBeforeMs`
   * ahead of the open), when the token lives that long; otherwise `renewBeforeMs` before it
   * expires, but never earlier than half-way through its life (a weekend keeps a live token).
   */
  private renewAt(t: LiveToken): number {
    const expiresAt = t.expiresAt ?? Infinity;
    const life = expiresAt - t.since;
    const beforeExpiry = expiresAt - Math.min(this.options.config.renewBeforeMs, life / 2);
    const cal = this.options.calendar;
    if (!cal || t.expiresAt === undefined) return beforeExpiry;
    const preOpen = nextPreOpen(cal, t.since, this.options.config.renewBeforeMs);
    return preOpen <= expiresAt ? preOpen : beforeExpiry;
  }

  private acquireOnce(replacing: string | undefined, force: boolean): Promise<string> {
    if (this.blocked) return Promise.reject(this.blocked);
    if (!force && this.current && replacing !== undefined && this.current.value !== replacing && !this.dueForRenewal(this.current)) {
      return Promise.resolve(this.current.value);
    }
    if (!this.inflight) {
      this.inflight = this.acquire(replacing, force).finally(() => {
        this.inflight = undefined;
      });
    }
    return this.inflight;
  }

  /** Takes the shared token, or generates one under the account's lock (see the file comment). */
  private async acquire(replacing: string | undefined, force: boolean): Promise<string> {
    if (!this.canGenerate || !this.totp) {
      throw new TokenGenerationBlocked('no access token is configured and TOTP generation needs TARANG_API_KEY, TARANG_MPIN and TARANG_TOTP_SECRET', {
        endpoint: ENDPOINT,
        reason: BlockReason.NO_CREDENTIALS,
      });
    }
    const { logger } = this.options;
    let throttles = 0;
    // After this process's own throttle answer its limiter waits on its own clock; another
    // process's throttle is waited out on the wall clock before trying.
    let ownThrottle = false;
    for (;;) {
      if (this.blocked) throw this.blocked;
      const seen = await this.store.read();
      if (!force) {
        const adopted = this.adopt(seen, replacing);
        if (adopted) return adopted;
      }
      this.refuseIfShared(seen);
      const throttleWait = (seen.throttledUntil ?? 0) - this.wall.now();
      if (throttleWait > 0 && !ownThrottle) {
        logger.warn({ waitMs: throttleWait }, 'token generation is throttled (another tarang process was told so); waiting');
        await this.wall.sleep(throttleWait);
        continue;
      }
      const lock = await this.store.tryLock(GENERATION_LOCK_TTL_MS);
      if (!lock) {
        // Another process is generating: its token will be in the store when it is done.
        await this.wall.sleep(LOCK_POLL_MS);
        continue;
      }
      let attempt: Attempt;
      try {
        const state = await this.store.read();
        if (!force) {
          const adopted = this.adopt(state, replacing);
          if (adopted) return adopted;
        }
        this.refuseIfShared(state);
        if ((state.throttledUntil ?? 0) > this.wall.now() && !ownThrottle) continue;
        attempt = await this.sendCode(state, throttles);
      } finally {
        await lock.release();
      }
      if (attempt.ok) return attempt.value;
      throttles++;
      ownThrottle = true;
    }
  }

  /** Takes the stored token when it is another one than `replacing`, alive, and not due here. */
  private adopt(state: TokenState, replacing: string | undefined): string | undefined {
    const st = state.token;
    if (!st || st.value === replacing) return undefined;
    const wallNow = this.wall.now();
    if (st.expiresAt !== undefined && st.expiresAt <= wallNow) return undefined;
    const now = this.options.clock.now();
    const live: LiveToken = { value: st.value, since: now - (wallNow - st.issuedAt), ...(st.expiresAt !== undefined ? { expiresAt: now + (st.expiresAt - wallNow) } : {}), generated: true };
    if (this.dueForRenewal(live)) return undefined;
    registerSecret(st.value);
    const changed = this.current?.value !== st.value;
    this.current = live;
    if (changed) {
      this.adoptions++;
      this.options.logger.debug({ store: this.store.where }, 'using the access token of the shared broker session');
      this.scheduleRenewal();
    }
    return st.value;
  }

  /** Remembers a shared refusal until it ends (blockedReason: the daemon's lockout-risk alert). */
  private noteShared(e: TokenGenerationBlocked): TokenGenerationBlocked {
    const until = Number(e.context['until']);
    this.sharedBlocked = { error: e, until: Number.isFinite(until) ? until : this.wall.now() };
    return e;
  }

  /** Refuses to send a code the shared record says will fail or will walk toward a lockout. */
  private refuseIfShared(state: TokenState): void {
    const live = liveRejections(state, this.wall.now());
    const mine = live.filter((r) => r.fingerprint === this.fingerprint || r.reason === BlockReason.LOCKED);
    const last = mine[mine.length - 1];
    if (last) throw this.noteShared(sharedBlock(last, `no code was sent: tarang sends no other code ${last.reason === BlockReason.LOCKED ? 'for this account' : 'with these credentials'} before ${formatIst(last.until)}`, this.store.where));
    const counted = live.filter((r) => r.counted);
    if (counted.length >= MAX_SHARED_WRONG_CODES) {
      const first = counted[0]!;
      throw this.noteShared(
        sharedBlock(
          { ...first, reason: BlockReason.LOCKED },
          `${counted.length} codes were refused for this account since ${formatIst(first.at)}; to stay clear of the broker's lockout (5 in 15 minutes) no code is sent before ${formatIst(counted[0]!.until)}`,
          this.store.where,
        ),
      );
    }
  }

  /** One code, sent while holding the lock; the outcome is written to the store before it returns. */
  private async sendCode(state: TokenState, throttles: number): Promise<Attempt> {
    const { http, clock, logger, config } = this.options;
    await http.limiters.acquire(RateCategory.TOKEN);
    const totp = this.totp!.generate({ timestamp: this.wall.now() });
    const res = await http.send(
      { method: 'POST', path: '/generate/token', auth: false, headers: { 'x-api-key': config.apiKey as string }, body: { mpin: config.mpin, totp } },
      undefined,
    );
    if (res.status >= 200 && res.status < 300) {
      const value = decode(GenerateTokenResponseSchema, res.json, ENDPOINT, res.status);
      registerSecret(value);
      const now = clock.now();
      const expiresAt = localExpiry(readExpiresAt(res.json), serverTime(res), now) ?? now + TOKEN_LIFETIME_MS;
      const wallNow = this.wall.now();
      this.current = { value, since: now, expiresAt, generated: true };
      this.generations++;
      const { throttledUntil: _done, ...rest } = state;
      await this.store.write({ ...rest, token: { value, issuedAt: wallNow, expiresAt: wallNow + (expiresAt - now) } });
      this.scheduleRenewal();
      logger.info({ expiresAt: formatIst(expiresAt) }, 'access token generated with TOTP');
      return { ok: true, value };
    }
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], clock.now());
    const reason = rejectionReason(res);
    if (reason === 'throttled' && throttles < 2) {
      const wait = retryAfterMs ?? 60_000;
      logger.warn({ waitMs: wait }, 'token generation throttled (1 per minute); waiting');
      http.limiters.penalise(RateCategory.TOKEN, wait);
      await this.store.write({ ...state, throttledUntil: this.wall.now() + wait });
      return { ok: false, throttledMs: wait };
    }
    const blocked = this.explain(res, reason, retryAfterMs);
    if (blocked) {
      this.blocked = blocked;
      const wallNow = this.wall.now();
      const blockReason = String(blocked.context['reason']);
      const rejection: StoredRejection = {
        at: wallNow,
        until: wallNow + (blockReason === BlockReason.LOCKED ? Math.max(retryAfterMs ?? WRONG_CODE_WINDOW_MS, 60_000) : WRONG_CODE_WINDOW_MS),
        fingerprint: this.fingerprint ?? '',
        reason: blockReason,
        counted: reason === BlockReason.WRONG_TOTP || reason === 'locked_now',
        message: blocked.message,
      };
      await this.store.write({ ...state, rejections: [...liveRejections(state, wallNow), rejection] });
      logger.error({ reason: blockReason, status: res.status }, blocked.message);
      throw blocked;
    }
    throw errorFromResponse(res.status, res.json ?? res.text, ENDPOINT, { retryAfterMs });
  }

  /** Turns a refusal into the blocking error with advice, or undefined for a transient refusal. */
  private explain(res: RawResponse, reason: string | undefined, retryAfterMs: number | undefined): TokenGenerationBlocked | undefined {
    const body = readErrorBody(res.json ?? res.text);
    // Codes are made from the wall clock, so drift is the wall clock against the broker's. The
    // simulator's Date is its market clock (shifted, maybe sped up): it says by how much, and only
    // what remains after that offset is drift of this machine's clock.
    const serverDate = serverTime(res);
    const simOffset = Number(res.headers[SIM_CLOCK_OFFSET_HEADER]);
    const brokerWall = serverDate === undefined ? undefined : serverDate - (Number.isFinite(simOffset) ? simOffset : 0);
    const driftMs = brokerWall === undefined ? undefined : this.wall.now() - brokerWall;
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
      this.acquireOnce(t.value, false).catch((e: BrokerError) => this.options.logger.error({ err: e }, 'scheduled token renewal failed'));
    }, Math.max(0, due));
  }
}

/** The broker's time from its `Date` header (1-s resolution), when sent. */
function serverTime(res: Pick<RawResponse, 'headers'>): number | undefined {
  const d = res.headers['date'] ? Date.parse(String(res.headers['date'])) : NaN;
  return Number.isFinite(d) ? d : undefined;
}

/**
 * The broker's `expires_at` on this process's clock. When the two clocks agree (live, a paper run
 * on the simulator's clock) it is used as sent; when they differ by more than two minutes (a CLI
 * on the wall clock against a simulator whose market clock is elsewhere) the remaining life the
 * broker granted is what counts.
 */
function localExpiry(expiresAt: number | undefined, serverNow: number | undefined, now: number): number | undefined {
  if (expiresAt === undefined) return undefined;
  if (serverNow === undefined || Math.abs(serverNow - now) < 2 * 60_000) return expiresAt;
  return now + (expiresAt - serverNow);
}

/** The first time after `since` that is `leadMs` before a session's open. */
export function nextPreOpen(calendar: MarketCalendar, since: number, leadMs: number): number {
  let s = calendar.currentOrNextSession(since + leadMs);
  if (s.open - leadMs <= since) s = calendar.currentOrNextSession(s.close);
  return s.open - leadMs;
}

/** The refusal another process recorded, raised here without sending anything. */
function sharedBlock(r: StoredRejection, what: string, where: string): TokenGenerationBlocked {
  return new TokenGenerationBlocked(`${r.message} [shared broker session: ${what}; recorded ${formatIst(r.at)} in ${where}]`, {
    endpoint: ENDPOINT,
    reason: r.reason,
    shared: true,
    until: r.until,
  });
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
