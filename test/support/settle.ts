/**
 * Driving a VirtualClock through a system that talks over real loopback HTTP and WebSocket (a
 * paper daemon and its simulator in this process) without depending on how fast the machine is.
 *
 * A wall-paced clock runs market time on while requests are still on the wire: on a loaded machine
 * a strategy then misses its entry window or its exit, and the test fails for a reason that has
 * nothing to do with the code. Here time stands still until the system has settled: no HTTP
 * request in flight (counted through undici's diagnostics channels, so every client in the process
 * is seen) and a run of event-loop turns in which none started, which also lets WebSocket frames
 * written during the step be read and acted on. Only then does the clock move again. Settling is
 * counted in event-loop turns, not milliseconds; the real-time bound only decides how long a
 * genuinely stuck system takes to fail.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { VirtualClock } from '../../src/core/clock.js';
import { WAIT_MS } from './wait.js';

const open = new Set<object>();
let started = 0;
const track = (msg: unknown): object | undefined => (msg as { request?: object } | undefined)?.request;
subscribe('undici:request:create', (m) => {
  const r = track(m);
  if (r) open.add(r);
  started++;
});
subscribe('undici:request:trailers', (m) => void open.delete(track(m) ?? {}));
subscribe('undici:request:error', (m) => void open.delete(track(m) ?? {}));

/** HTTP requests (undici, any client in this process) started and not yet answered. */
export function httpInFlight(): number {
  return open.size;
}

/** Event-loop turns without a new request, and with none in flight, that count as settled. */
const QUIET_TURNS = 8;

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Resolves once no HTTP request is in flight and none has started for a run of event-loop turns.
 * Work waiting on the virtual clock (a rate limiter's slot, a reconciliation delay) is settled
 * too: it goes on when the clock moves.
 */
export async function settle(timeoutMs = WAIT_MS): Promise<void> {
  const end = performance.now() + timeoutMs;
  let quiet = 0;
  let seen = started;
  while (quiet < QUIET_TURNS) {
    await turn();
    if (open.size > 0 || started !== seen) {
      quiet = 0;
      seen = started;
    } else quiet++;
    if (performance.now() > end) throw new Error(`system did not settle within ${timeoutMs} ms of real time (${open.size} HTTP request(s) in flight)`);
  }
}

/**
 * Moves `clock` to `ts` in steps of `stepMs`, settling after each (timers due inside a step fire
 * at their own times during the step, as they do under the daemon's pacer).
 */
export async function driveTo(clock: VirtualClock, ts: number, stepMs = 1_000): Promise<void> {
  await settle();
  while (clock.now() < ts) {
    clock.advanceTo(Math.min(ts, clock.now() + stepMs));
    await settle();
  }
}
