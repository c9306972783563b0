/**
 * Waiting in tests that talk to real sockets, Redis or worker threads. A test waits for the thing
 * it needs (a condition, a timer parked on a virtual clock), never for a fixed number of wall
 * milliseconds: on a loaded machine (2 cores shared by several suites) a fixed sleep is sometimes
 * too short. The real-time bounds are generous because they only decide how long a genuinely broken
 * test takes to fail; a passing test returns as soon as the condition holds.
 */
import type { VirtualClock } from '../../src/core/clock.js';

/** Real-time bound for one wait: long enough for a loaded machine, shorter than the test timeout. */
export const WAIT_MS = 20_000;

/** Polls `cond` (every 10 ms of real time) until it holds; fails naming `what` after `timeoutMs`. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms of real time waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until `clock` has at least `count` live timers: code that sleeps on a virtual clock (a
 * limiter holding a call, a retry back-off) has reached its sleep, so moving the clock now wakes it
 * rather than leaving it to start a fresh wait after the move.
 */
export function parkedOn(clock: VirtualClock, count: number, what: string, timeoutMs = WAIT_MS): Promise<void> {
  return until(() => clock.pending >= count, `${what} (${count} timer(s) on the virtual clock, ${clock.pending} now)`, timeoutMs);
}
