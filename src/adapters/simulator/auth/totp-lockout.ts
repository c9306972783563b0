/**
 * The TOTP lockout machine of spec 3.3, on the simulator's clock:
 * - a wrong code while open is counted; the 5th within a rolling 15 minutes locks for 15 minutes;
 * - the 3rd lock within 1 hour locks for 1 hour instead, and raises an alert to the holder;
 * - any attempt while locked is rejected without counting and without extending the lock;
 * - an attempt less than 60 s after a successful generation is rejected by the throttle.
 * Thresholds are data (spec 8 says they "may be tuned"), defaults are the spec's.
 */
import type { Clock } from '../../../core/clock.js';
import { MINUTE_MS, HOUR_MS } from '../../../core/time.js';

export interface LockoutPolicy {
  readonly maxFailures: number;
  readonly failureWindowMs: number;
  readonly lockMs: number;
  readonly maxLocks: number;
  readonly lockWindowMs: number;
  readonly longLockMs: number;
  readonly throttleMs: number;
}

export const DEFAULT_LOCKOUT_POLICY: LockoutPolicy = Object.freeze({
  maxFailures: 5,
  failureWindowMs: 15 * MINUTE_MS,
  lockMs: 15 * MINUTE_MS,
  maxLocks: 3,
  lockWindowMs: HOUR_MS,
  longLockMs: HOUR_MS,
  throttleMs: MINUTE_MS,
});

/** Whether an attempt may proceed to the mpin/TOTP checks, and if not why. */
export type AttemptGate =
  | { readonly state: 'open' }
  | { readonly state: 'locked'; readonly until: number; readonly long: boolean }
  | { readonly state: 'throttled'; readonly until: number };

export type FailureOutcome =
  | { readonly state: 'open'; readonly remaining: number; readonly windowMs: number }
  | { readonly state: 'locked'; readonly until: number; readonly long: boolean };

export interface LockoutAlert {
  readonly ts: number;
  readonly until: number;
  readonly locksInWindow: number;
}

export class TotpLockout {
  private failures: number[] = [];
  private locks: number[] = [];
  private lockedUntil = 0;
  private longLock = false;
  private lastSuccess: number | undefined;

  constructor(
    private readonly clock: Clock,
    readonly policy: LockoutPolicy = DEFAULT_LOCKOUT_POLICY,
    private readonly onAlert: (alert: LockoutAlert) => void = () => {},
  ) {
    for (const [k, v] of Object.entries(policy)) {
      if (!(typeof v === 'number' && v > 0)) throw new RangeError(`TotpLockout: policy.${k} must be a positive number, got ${String(v)}`);
    }
  }

  /** Checked first on every generation attempt; never changes state. */
  gate(): AttemptGate {
    const now = this.clock.now();
    if (now < this.lockedUntil) return { state: 'locked', until: this.lockedUntil, long: this.longLock };
    if (this.lastSuccess !== undefined && now - this.lastSuccess < this.policy.throttleMs) {
      return { state: 'throttled', until: this.lastSuccess + this.policy.throttleMs };
    }
    return { state: 'open' };
  }

  /** A wrong or expired code (only call when the gate was open). */
  recordFailure(): FailureOutcome {
    const now = this.clock.now();
    const p = this.policy;
    this.failures = this.failures.filter((t) => now - t < p.failureWindowMs);
    this.failures.push(now);
    if (this.failures.length < p.maxFailures) {
      return { state: 'open', remaining: p.maxFailures - this.failures.length, windowMs: p.failureWindowMs };
    }
    this.failures = [];
    this.locks = this.locks.filter((t) => now - t < p.lockWindowMs);
    this.locks.push(now);
    this.longLock = this.locks.length >= p.maxLocks;
    this.lockedUntil = now + (this.longLock ? p.longLockMs : p.lockMs);
    if (this.longLock) {
      this.onAlert({ ts: now, until: this.lockedUntil, locksInWindow: this.locks.length });
      // The long lock is the escalation of these locks: counting restarts after it.
      this.locks = [];
    }
    return { state: 'locked', until: this.lockedUntil, long: this.longLock };
  }

  recordSuccess(): void {
    // Failures stay counted: the spec's window is rolling, not reset by a success.
    this.lastSuccess = this.clock.now();
  }

  /** Failures counted in the current rolling window (for diagnostics and tests). */
  get failureCount(): number {
    const now = this.clock.now();
    return this.failures.filter((t) => now - t < this.policy.failureWindowMs).length;
  }
}
