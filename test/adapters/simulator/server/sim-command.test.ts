import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../../bin/tarang.js', import.meta.url));

describe('tarang sim', () => {
  it('prints exactly one sim.ready JSON line first, serves on it, and keeps the secrets out of the logs', async () => {
    const child = spawn(process.execPath, [bin, 'sim', '--port', '0', '--seed', '7', '--start', '2026-11-20T09:15:00+05:30', '--speed', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        const rl = createInterface({ input: child.stdout });
        rl.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`sim exited (${code}) before sim.ready: ${stderr}`)));
      });
      const ready = JSON.parse(first) as Record<string, string>;
      expect(Object.keys(ready)).toEqual(['event', 'base_url', 'ws_url', 'api_key', 'mpin', 'totp_secret', 'access_token', 'admin_key']);
      expect(ready['event']).toBe('sim.ready');
      expect(ready['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready['ws_url']).toBe(`${ready['base_url']!.replace('http', 'ws')}/ws`);
      expect(ready['totp_secret']).toMatch(/^[A-Z2-7]+=*$/);
      const clock = (await (await fetch(`${ready['base_url']}/sim/clock`)).json()) as { now_ms: number };
      expect(clock.now_ms).toBeGreaterThanOrEqual(Date.parse('2026-11-20T09:15:00+05:30'));
      const profile = await fetch(`${ready['base_url']}/user/profile`, { headers: { authorization: ready['access_token']! } });
      expect(profile.status).toBe(200);
      // The paste block (`export TARANG_...=` lines for a person, printed on purpose) carries the
      // login credentials; the log records around it carry no secret at all.
      const logs = stderr.split('\n').filter((l) => !l.startsWith('export TARANG_') && !l.startsWith('# tarang sim is ready')).join('\n');
      for (const k of ['api_key', 'mpin', 'totp_secret', 'access_token', 'admin_key']) expect(logs).not.toContain(ready[k]);
      for (const k of ['access_token', 'admin_key']) expect(stderr).not.toContain(ready[k]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('refuses a bad flag with a message naming it', async () => {
    const child = spawn(process.execPath, [bin, 'sim', '--speed', 'fast'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--speed: expected a positive number/);
  });
});
