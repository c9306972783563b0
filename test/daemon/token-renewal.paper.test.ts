/**
 * The daily session in paper mode: a daemon with TOTP credentials only, started mid-session on a
 * Thursday, renews its token before Friday's open (the retail-algo framework wants API sessions
 * to start fresh each trading day) instead of 24 hours after it was made (Friday 10:30, mid-session).
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../src/adapters/simulator/index.js';
import type { BrokerConfigInput } from '../../src/adapters/broker/config.js';
import { VirtualClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/log.js';
import { istDateTime } from '../../src/core/time.js';
import { DaemonConfigSchema } from '../../src/daemon/config.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { launchDaemon } from '../../src/daemon/launch.js';
import { until } from '../support/wait.js';

const THURSDAY_11 = istDateTime('2026-11-19', '11:00');
const FRIDAY_0845 = istDateTime('2026-11-20', '08:45');
const FRIDAY_OPEN = istDateTime('2026-11-20', '09:15');

let sim: RunningSimulator;
let clock: VirtualClock;
let daemon: Daemon | undefined;
const stateDir = mkdtempSync(join(tmpdir(), 'tarang-renewal-'));

interface Entry {
  readonly path: string;
  readonly status: number;
  readonly ts: number;
}

async function control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const r = await request(`${sim.baseUrl}${path}`, {
    method,
    headers: { 'x-sim-admin': sim.credentials.admin_key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.body.text();
  if (r.statusCode >= 300) throw new Error(`sim control ${method} ${path}: HTTP ${r.statusCode}: ${text}`);
  return JSON.parse(text) as unknown;
}

async function requests(): Promise<Entry[]> {
  return ((await control('GET', '/sim/requests?limit=1000')) as { data: Entry[] }).data;
}

async function generations(): Promise<Entry[]> {
  return (await requests()).filter((e) => e.path === '/generate/token');
}

beforeAll(async () => {
  clock = new VirtualClock(THURSDAY_11);
  sim = await startSimulator({ clock, logger: silentLogger(), venue: { nseEquities: 20, bseEquities: 0, tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000 } });
});
afterAll(async () => {
  await daemon?.stop().catch(() => {});
  await sim?.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe('daily broker session (paper)', () => {
  it('renews the token before the next session opens, and the daemon keeps working through the day roll', async () => {
    const config = DaemonConfigSchema.parse({
      strategies: [{ id: 'sma', strategy: 'sma-cross', params: { instrument: 'NSE:RELIANCE', interval: '1minute', fast: 3, slow: 10, qty: 1 } }],
      store: 'memory',
      stateDir,
      ops: { enabled: false },
      recording: { enabled: false },
      shutdown: { onStop: 'none', atSessionEnd: 'none' },
      statusIntervalMs: 0,
      paper: { speed: 1 },
    });
    // TOTP credentials only: no dashboard token to fall back on.
    const launched = await launchDaemon({ config, file: join(stateDir, 'paper.yaml'), mode: 'paper', log: silentLogger(), out: null, attach: sim, sources: ['equity'], broker: { accessToken: undefined } as Partial<BrokerConfigInput> });
    daemon = launched.daemon;
    await daemon.start();
    const first = await generations();
    expect(first).toHaveLength(1);
    expect(first[0]!.ts).toBe(THURSDAY_11);

    // Overnight to 09:00 Friday: the renewal timer fires at 08:45 on the way.
    await control('POST', '/sim/clock', { set: istDateTime('2026-11-20', '09:00') });
    await until(async () => (await generations()).length === 2, 'the pre-open renewal');
    const renewed = (await generations())[1]!;
    expect(renewed.status).toBe(200);
    expect(renewed.ts).toBeGreaterThanOrEqual(FRIDAY_0845);
    expect(renewed.ts).toBeLessThan(FRIDAY_OPEN);

    // Into Friday's session, past 10:30 (where a renewal 30 minutes before the 24 hours run out
    // would have fallen): the daemon keeps calling the broker, and nothing it asks is refused.
    await control('POST', '/sim/clock', { set: istDateTime('2026-11-20', '11:30') });
    const after = istDateTime('2026-11-20', '11:30');
    await until(async () => (await requests()).some((e) => e.ts >= after && e.path !== '/generate/token'), 'a call of the daemon after the jump');
    expect((await requests()).filter((e) => e.status === 403)).toEqual([]);
    await daemon.stop();
    daemon = undefined;
  }, 120_000);
});
