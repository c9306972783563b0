/**
 * A VirtualClock moved on in the background, a step at a time, only once the system has settled
 * (test/support/settle.ts: no HTTP request in flight, a run of quiet event-loop turns): market time
 * never runs ahead of a loaded machine, as a wall-paced clock does. For tests that run a daemon and
 * a simulator for a while and wait for what happens (fills, a session end), where `driveTo` fits
 * tests that go to one known time.
 *
 * `maxSpeed` caps market time at that many times wall time: a bound, never a pace the test relies
 * on. It keeps market time near that of a process the test cannot drive (a child `tarang paper`
 * on its own wall clock), and a test that waits long in real time from racing to the close.
 */
import type { VirtualClock } from '../../src/core/clock.js';
import { settle } from './settle.js';
import { until, WAIT_MS } from './wait.js';

export interface ClockDriver {
  readonly clock: VirtualClock;
  /** Resolves once market time has moved `ms` past now, each step settled. */
  elapse(ms: number, timeoutMs?: number): Promise<void>;
  /** Stops moving the clock (a step under way finishes). */
  stop(): void;
}

export function driveClock(clock: VirtualClock, o: { stepMs?: number; maxSpeed?: number } = {}): ClockDriver {
  const stepMs = o.stepMs ?? 500;
  const maxSpeed = o.maxSpeed ?? Infinity;
  let running = true;
  const wall0 = performance.now();
  const market0 = clock.now();
  void (async () => {
    while (running) {
      try {
        await settle();
      } catch {
        // Busy for WAIT_MS of real time (a request still in flight): keep waiting, never jump ahead.
        continue;
      }
      if (!running) return;
      const next = clock.now() + stepMs;
      const wallNeeded = (next - market0) / maxSpeed - (performance.now() - wall0);
      if (wallNeeded > 0) {
        await new Promise((r) => setTimeout(r, Math.ceil(wallNeeded)));
        continue;
      }
      clock.advanceTo(next);
    }
  })();
  return {
    clock,
    async elapse(ms, timeoutMs = WAIT_MS) {
      const target = clock.now() + ms;
      await until(() => clock.now() >= target, `${ms} ms of market time to pass (${target - clock.now()} ms to go)`, timeoutMs);
    },
    stop() {
      running = false;
    },
  };
}
