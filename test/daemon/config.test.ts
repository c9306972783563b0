import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPath } from '../../src/core/paths.js';
import { loadDaemonConfig, parseDuration } from '../../src/daemon/config.js';
import { configErrorOf } from '../support/config-error.js';

function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-cfg-'));
  const f = join(dir, 'daemon.yaml');
  writeFileSync(f, text);
  return f;
}

describe('daemon config', () => {
  it('loads config/paper.yaml with its strategies, shutdown policy and paper section', () => {
    const c = loadDaemonConfig(configPath('paper.yaml'), {});
    expect(c.strategies.map((s) => s.strategy)).toEqual(['sma-cross', 'sma-cross', 'sma-cross']);
    expect(c.store).toBe('memory');
    expect(c.paper).toMatchObject({ simulator: 'embedded', speed: 60, start: '09:15' });
    expect(c.shutdown).toEqual({ onStop: 'flatten', atSessionEnd: 'flatten', sessionEnd: '15:20', timeoutSeconds: 20 });
    expect(c.recording.dir).toBe(configPath('..', 'recordings'));
    expect(c.broker).toBeUndefined();
  });

  it('loads config/live.example.yaml when the secrets are in the environment', () => {
    const c = loadDaemonConfig(configPath('live.example.yaml'), { TARANG_API_KEY: 'key-123456', TARANG_MPIN: '1234', TARANG_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' });
    expect(c.broker?.baseUrl).toBe('https://api.indstocks.com');
    expect(c.broker?.mpin).toBe('1234');
    expect(c.store).toBe('redis://127.0.0.1:6379/0');
    expect(c.alerts.webhook).toBeUndefined();
    expect(c.risk.maxDailyLoss).toBe(500000);
  });

  it('names the file and the variable when a secret is missing from the environment', () => {
    expect(() => loadDaemonConfig(configPath('live.example.yaml'), {})).toThrow(/live\.example\.yaml: broker\.apiKey: environment variable TARANG_API_KEY is not set/);
  });

  it('names the file, line and key path of a bad value', () => {
    const f = file('strategies:\n  - id: a\n    strategy: sma-cross\nrisk:\n  maxOpenOrders: "abc"\nshutdown:\n  onStop: explode\n');
    let msg = '';
    try {
      loadDaemonConfig(f, {});
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: risk\\.maxOpenOrders: expected number, got "abc"`));
    expect(msg).toMatch(/:7: shutdown\.onStop: expected one of "none", "cancel", "flatten", got "explode"/);
  });

  it('requires at least one strategy and refuses unknown keys', () => {
    expect(() => loadDaemonConfig(file('strategies: []\n'), {})).toThrow(/strategies: list at least one strategy/);
    expect(() => loadDaemonConfig(file('strategies:\n  - { id: a, strategy: x }\nstroe: memory\n'), {})).toThrow(/unknown key "stroe"/);
  });

  it('parses durations', () => {
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('6h15m')).toBe(22_500);
    expect(parseDuration(12)).toBe(12);
    expect(() => parseDuration('soon')).toThrow(/expected a duration/);
  });
});

/** Writes a config file of these lines in a fresh folder; returns its path. */
function configFile(lines: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tarang-secrets-')), 'live.yaml');
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('daemon config errors never echo a secret', () => {
  const secrets = ['Q4X7ZK2M', '0123', 'short-tok3n', 'hunter2hunter2', 'S3CRETAPIKEY'];

  it('names the key and what is wrong with a secret-holding field, without its value', () => {
    const file = configFile([
        'broker:',
        '  baseUrl: https://broker.example',
        '  apiKey: 12345',
        '  totpSecret: "Q4X7 ZK2M 1!"',
        '  mpin: 0123',
        '  accessToken: ""',
        'store: "rediss://:hunter2hunter2@redis.internal:6380/"',
        'strategies: []',
        'ops:',
        '  enabled: true',
        '  token: short-tok3n',
        '  webhook: { apiKey: S3CRETAPIKEY, retries: -1 }',
    ]);
    const msg = configErrorOf(() => loadDaemonConfig(file, {}));
    expect(msg).toContain('live.yaml:3: broker.apiKey: expected string, got a number (not shown: a secret');
    expect(msg).toContain('live.yaml:4: broker.totpSecret: must be the base32 secret shown when TOTP was set up (letters A-Z and digits 2-7), got a string of 12 characters (not shown: a secret)');
    expect(msg).toContain('live.yaml:5: broker.mpin: expected string, got a number (not shown: a secret; quote it if it has leading zeros)');
    expect(msg).toContain('live.yaml:11: ops.token:');
    for (const s of secrets) expect(msg).not.toContain(s);
    expect(msg).not.toContain('123');
  });

  it('takes a TOTP secret written in groups of four as the authenticator shows it', () => {
    const file = configFile([
        'broker:',
        '  baseUrl: https://broker.example',
        '  apiKey: key-1',
        '  mpin: "0123"',
        '  totpSecret: "jbsw y3dp ehpk 3pxp"',
        'strategies:',
        '  - { id: s, strategy: sma-cross, params: { instrument: "NSE:RELIANCE" } }',
    ]);
    expect(loadDaemonConfig(file, {}).broker?.totpSecret).toBe('JBSWY3DPEHPK3PXP');
  });
});
