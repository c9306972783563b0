/**
 * `tarang sim` as a person starts it: besides the sim.ready JSON line it prints `export TARANG_...=`
 * lines a shell accepts as they are, or writes them to --exports-file with mode 0600; SIGTERM stops it
 * with exit 0.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTarang } from '../../support/tarang-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a shell sees after running `lines`. */
function shellEnv(lines: string): Record<string, string> {
  const out = execFileSync('sh', ['-c', `${lines}\nenv`], { env: { PATH: process.env['PATH'] ?? '' } }).toString();
  return Object.fromEntries(out.split('\n').filter((l) => l.startsWith('TARANG_')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

function expected(ready: Record<string, string>): Record<string, string> {
  return { TARANG_BASE_URL: ready['base_url']!, TARANG_WS_URL: ready['ws_url']!, TARANG_API_KEY: ready['api_key']!, TARANG_MPIN: ready['mpin']!, TARANG_TOTP_SECRET: ready['totp_secret']! };
}

describe('tarang sim', () => {
  it('prints export lines to paste on stderr, or writes them to --exports-file with mode 0600', async () => {
    const file = join(dir, 'sim.env');
    const printing = startTarang(['sim', '--port', '0'], { HOME: dir });
    const writing = startTarang(['sim', '--port', '0', '--exports-file', file], { HOME: dir });
    try {
      const a = await printing.waitFor(/export TARANG_TOTP_SECRET=.*\n/, 'the export lines');
      const readyA = JSON.parse(a.stdout.split('\n')[0]!) as Record<string, string>;
      const exportsA = a.stderr.split('\n').filter((l) => l.startsWith('export ')).join('\n');
      expect(shellEnv(exportsA)).toEqual(expected(readyA));

      const b = await writing.waitFor(/in another shell run/, 'the exports-file message');
      const readyB = JSON.parse(b.stdout.split('\n')[0]!) as Record<string, string>;
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(shellEnv(readFileSync(file, 'utf8'))).toEqual(expected(readyB));
      expect(b.stderr).not.toContain(readyB['totp_secret']);
    } finally {
      const [x, y] = await Promise.all([printing.stop(), writing.stop()]);
      expect([x.code, x.stderr.slice(-600)]).toEqual([0, expect.anything()]);
      expect([y.code, y.stderr.slice(-600)]).toEqual([0, expect.anything()]);
    }
  }, 120_000);
});
