/**
 * The first day of a user, as processes: a simulator, a daemon (paper, against the simulator's
 * URL, TOTP credentials only) and CLI commands beside it, each its own `tarang` process sharing
 * the state folder. The simulator's request log is the witness: one token generation in all, no
 * throttle answer, no refused token.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../src/adapters/simulator/index.js';
import { packageRoot } from '../../src/core/paths.js';
import { silentLogger } from '../../src/core/log.js';
import { istDate } from '../../src/core/time.js';
import { DaemonConfigSchema } from '../../src/daemon/config.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { launchDaemon } from '../../src/daemon/launch.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let sim: RunningSimulator;
let home: string;
const homes: string[] = [];
let daemon: Daemon | undefined;

function tarang(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/tarang.js', ...args], { cwd: packageRoot(), env: { PATH: process.env['PATH'] ?? '', HOME: home, TARANG_HOME: home, XDG_CACHE_HOME: join(home, 'cache'), ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function log(): Promise<Array<{ method: string; path: string; status: number }>> {
  const r = await request(`${sim.baseUrl}/sim/requests?limit=5000`, { headers: { 'x-sim-admin': sim.credentials.admin_key } });
  return ((await r.body.json()) as { data: Array<{ method: string; path: string; status: number }> }).data;
}

async function advance(ms: number): Promise<void> {
  const r = await request(`${sim.baseUrl}/sim/clock`, { method: 'POST', headers: { 'x-sim-admin': sim.credentials.admin_key, 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
  await r.body.dump();
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'tarang-home-'));
  // As `tarang sim` runs: the market clock from 09:15 IST, at wall speed.
  sim = await startSimulator({ logger: silentLogger(), requestLogSize: 5000, venue: { nseEquities: 20, bseEquities: 0 } });
});
afterAll(async () => {
  await daemon?.stop().catch(() => {});
  await sim?.close();
  for (const dir of [...homes, home]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('one broker session for every tarang process', () => {
  it('a daemon and 20 CLI commands beside it share one token: one generation, no throttle, no refused token, every command exit 0', async () => {
    const c = sim.credentials;
    const config = DaemonConfigSchema.parse({
      broker: { baseUrl: sim.baseUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret },
      strategies: [{ id: 'sma', strategy: 'sma-cross', params: { instrument: 'NSE:RELIANCE', interval: '1minute', fast: 3, slow: 10, qty: 1 } }],
      store: 'memory',
      stateDir: home,
      ops: { enabled: false },
      recording: { enabled: false },
      shutdown: { onStop: 'none', atSessionEnd: 'none' },
      statusIntervalMs: 0,
      paper: { simulator: sim.baseUrl, speed: 1 },
    });
    const launched = await launchDaemon({ config, file: join(home, 'paper.yaml'), mode: 'paper', log: silentLogger(), out: null, sources: ['equity'] });
    daemon = launched.daemon;
    await daemon.start();
    expect((await log()).filter((e) => e.path === '/generate/token')).toHaveLength(1);

    const env = { TARANG_BASE_URL: sim.baseUrl, TARANG_API_KEY: c.api_key, TARANG_MPIN: c.mpin, TARANG_TOTP_SECRET: c.totp_secret };
    const day = istDate(sim.clock.now());
    const commands: string[][] = [
      ['account', 'profile'],
      ['account', 'funds'],
      ['account', 'positions'],
      ['account', 'orders'],
      ['account', 'trades'],
      ['account', 'holdings'],
      ['quote', 'NSE_2885'],
      ['quote', 'NSE_2885', '--ltp'],
      ['candles', 'NSE_2885', '--interval', '5minute', '--from', day, '--to', day, '--no-cache'],
      ['account', 'orders', '--json'],
    ];
    const all = [...commands, ...commands];
    expect(all).toHaveLength(20);
    // Four at a time: side by side, as a user's terminals and scripts would run them.
    const runs: Run[] = [];
    for (let i = 0; i < all.length; i += 4) runs.push(...(await Promise.all(all.slice(i, i + 4).map((a) => tarang(a, env)))));
    runs.forEach((r, i) => expect({ command: all[i]!.join(' '), code: r.code, stderr: r.stderr }).toEqual({ command: all[i]!.join(' '), code: 0, stderr: '' }));
    expect(runs[0]!.stdout).toMatch(/SIM0001/);

    const entries = await log();
    expect(entries.filter((e) => e.path === '/generate/token')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(entries.filter((e) => e.status === 429 && e.path === '/generate/token')).toHaveLength(0);
    // No call of the daemon or of a command was refused for its token.
    expect(entries.filter((e) => e.status === 403)).toHaveLength(0);
    await daemon.stop();
    daemon = undefined;
  }, 900_000);

  it('with a wrong secret, five processes started one after another send one code in all', async () => {
    await advance(61_000);
    const c = sim.credentials;
    const before = (await log()).filter((e) => e.path === '/generate/token').length;
    // A state folder without the first test's live token (a wrong secret would simply reuse it).
    homes.push(home);
    home = await mkdtemp(join(tmpdir(), 'tarang-home-'));
    const env = { TARANG_BASE_URL: sim.baseUrl, TARANG_API_KEY: c.api_key, TARANG_MPIN: c.mpin, TARANG_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' };
    for (let i = 0; i < 5; i++) {
      const r = await tarang(['account', 'funds'], env);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/TOTP code was rejected/);
      expect(r.stderr).toMatch(/TARANG_TOTP_SECRET/);
      expect(r.stderr).not.toContain(c.api_key);
    }
    expect((await log()).filter((e) => e.path === '/generate/token').length).toBe(before + 1);
  }, 600_000);
});
