/**
 * Test harness: a real simulator on loopback and a broker adapter pointed at it, both on the
 * simulator's clock (so TOTP codes, token lifetimes and rate windows agree).
 */
import { request } from 'undici';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../src/adapters/simulator/index.js';
import { createBroker, type Broker, type BrokerOptions } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig, type BrokerConfigInput } from '../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import type { WriteAnswer } from '../../../src/adapters/broker/client.js';
import { silentLogger } from '../../../src/core/log.js';

/** The broker's answer to a write; fails the test when the answer was lost. */
export function acked<A>(w: WriteAnswer<A>): A {
  if (w.kind !== 'answered') throw new Error(`${w.endpoint} (${w.ref}): the answer was lost: ${w.reason}`);
  return w.ack;
}

export interface Harness {
  readonly sim: RunningSimulator;
  readonly broker: Broker;
  /** Calls the simulator's control API. */
  control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly sim?: SimulatorOptions;
  /** Overrides of the broker config; `auth: 'totp'` uses api key + mpin + TOTP instead of the token. */
  readonly config?: Partial<BrokerConfigInput>;
  readonly auth?: 'token' | 'totp';
  readonly broker?: BrokerOptions;
}

export async function startHarness(o: HarnessOptions = {}): Promise<Harness> {
  // A small universe keeps start-up and clock jumps fast; tests that need thousands of instruments
  // pass their own `sim.venue`.
  const sim = await startSimulator({ logger: silentLogger(), ...o.sim, venue: { nseEquities: 40, bseEquities: 10, pumpMs: 1000, ...o.sim?.venue } });
  const c = sim.credentials;
  const auth = o.auth === 'totp' ? { apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret } : { accessToken: c.access_token };
  const config = parseBrokerConfig({
    baseUrl: sim.baseUrl,
    wsUrl: sim.wsUrl,
    ...auth,
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    timeouts: { connectMs: 2000, requestMs: 5000, writeMs: 1500 },
    ...o.config,
  });
  // Each harness gets its own budget: tests must not share limiter state through the registry.
  const limiters = new RateLimiters(sim.clock, config.rateLimits, undefined, config.orderRate.perSegment);
  const broker = createBroker(config, { clock: sim.clock, logger: silentLogger(), limiters, marketOpen: () => true, ...o.broker });
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const r = await request(`${sim.baseUrl}${path}`, {
      method,
      headers: { 'x-sim-admin': c.admin_key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.body.text();
    return { status: r.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
  return {
    sim,
    broker,
    control,
    async close() {
      await broker.close();
      await sim.close();
    },
  };
}
