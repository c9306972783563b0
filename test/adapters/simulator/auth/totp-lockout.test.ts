import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { TotpLockout, type LockoutAlert } from '../../../../src/adapters/simulator/auth/totp-lockout.js';

const MIN = 60_000;

function wrong(l: TotpLockout, n: number): ReturnType<TotpLockout['recordFailure']>[] {
  return Array.from({ length: n }, () => l.recordFailure());
}

describe('TotpLockout (spec 3.3)', () => {
  it('locks for 15 minutes on the 5th wrong code within a rolling 15 minutes', () => {
    const clock = new VirtualClock(1_000_000);
    const l = new TotpLockout(clock);
    const outcomes = wrong(l, 4);
    expect(outcomes.map((o) => (o.state === 'open' ? o.remaining : -1))).toEqual([4, 3, 2, 1]);
    const fifth = l.recordFailure();
    expect(fifth).toEqual({ state: 'locked', until: 1_000_000 + 15 * MIN, long: false });
    expect(l.gate().state).toBe('locked');
    clock.advanceBy(15 * MIN - 1);
    expect(l.gate().state).toBe('locked');
    clock.advanceBy(1);
    expect(l.gate().state).toBe('open');
  });

  it('forgets failures older than 15 minutes (rolling window)', () => {
    const clock = new VirtualClock(0);
    const l = new TotpLockout(clock);
    wrong(l, 4);
    clock.advanceBy(15 * MIN);
    const o = l.recordFailure();
    expect(o).toEqual({ state: 'open', remaining: 4, windowMs: 15 * MIN });
  });

  it('escalates the third lock within an hour to a 1-hour lock and raises an alert', () => {
    const clock = new VirtualClock(0);
    const alerts: LockoutAlert[] = [];
    const l = new TotpLockout(clock, undefined, (a) => alerts.push(a));
    wrong(l, 5);
    clock.advanceBy(15 * MIN);
    wrong(l, 5);
    clock.advanceBy(15 * MIN);
    expect(alerts).toHaveLength(0);
    const third = wrong(l, 5).at(-1);
    expect(third).toEqual({ state: 'locked', until: 30 * MIN + 60 * MIN, long: true });
    expect(alerts).toEqual([{ ts: 30 * MIN, until: 90 * MIN, locksInWindow: 3 }]);
  });

  it('gate does not extend a lock however often it is asked', () => {
    const clock = new VirtualClock(0);
    const l = new TotpLockout(clock);
    wrong(l, 5);
    for (let i = 0; i < 10; i++) {
      clock.advanceBy(MIN);
      expect(l.gate()).toEqual({ state: 'locked', until: 15 * MIN, long: false });
    }
  });

  it('throttles an attempt less than 60 s after a success', () => {
    const clock = new VirtualClock(0);
    const l = new TotpLockout(clock);
    l.recordSuccess();
    clock.advanceBy(59_999);
    expect(l.gate()).toEqual({ state: 'throttled', until: 60_000 });
    clock.advanceBy(1);
    expect(l.gate()).toEqual({ state: 'open' });
  });

  it('refuses a policy with a non-positive threshold, naming it', () => {
    expect(() => new TotpLockout(new VirtualClock(0), { maxFailures: 0, failureWindowMs: 1, lockMs: 1, maxLocks: 1, lockWindowMs: 1, longLockMs: 1, throttleMs: 1 })).toThrow(/policy.maxFailures/);
  });
});
