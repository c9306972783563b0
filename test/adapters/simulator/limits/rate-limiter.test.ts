import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { RateLimiter } from '../../../../src/adapters/simulator/limits/rate-limiter.js';
import { istDateTime } from '../../../../src/core/time.js';

describe('RateLimiter (spec 8)', () => {
  it('allows 10 order calls in a rolling second and refuses the 11th until the oldest ages out', () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '10:00'));
    const rl = new RateLimiter(clock);
    const got = Array.from({ length: 10 }, (_, i) => {
      clock.advanceBy(i === 0 ? 0 : 10);
      return rl.take('u', 'orders');
    });
    expect(got.every((d) => d.allowed)).toBe(true);
    expect(got.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const refused = rl.take('u', 'orders');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(1000 - 90);
    clock.advanceBy(1000 - 90);
    expect(rl.take('u', 'orders').allowed).toBe(true);
    expect(rl.take('u', 'orders').allowed).toBe(false);
  });

  it('keeps categories apart', () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '10:00'));
    const rl = new RateLimiter(clock);
    for (let i = 0; i < 5; i++) expect(rl.take('u', 'quotes').allowed).toBe(true);
    expect(rl.take('u', 'quotes').allowed).toBe(false);
    expect(rl.take('u', 'data').allowed).toBe(true);
  });

  it('enforces the per-day budget until IST midnight', () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '23:00'));
    const rl = new RateLimiter(clock, { data: { perSecond: 5, perDay: 3 } });
    for (let i = 0; i < 3; i++) {
      clock.advanceBy(1000);
      expect(rl.take('u', 'data').allowed).toBe(true);
    }
    clock.advanceBy(1000);
    const d = rl.take('u', 'data');
    expect(d).toMatchObject({ allowed: false, scope: 'day', limit: 3, resetAt: istDateTime('2026-11-21', '00:00') });
    clock.advanceTo(istDateTime('2026-11-21', '00:00'));
    expect(rl.take('u', 'data').allowed).toBe(true);
  });

  it('refuses a non-integer budget at construction, naming it', () => {
    expect(() => new RateLimiter(new VirtualClock(0), { orders: { perSecond: 2.5 } })).toThrow(/orders.perSecond/);
  });
});
