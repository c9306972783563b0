import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/log.js';
import { loadOrCreateControlToken, readControlToken } from '../../../src/adapters/ops/control-token.js';

describe('control token file', () => {
  it('is created once with mode 0600 and read back unchanged', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tarang-tok-')), 'state', 'ops.token');
    const t = loadOrCreateControlToken(file);
    expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateControlToken(file)).toBe(t);
    expect(readControlToken(file)).toBe(t);
  });

  it('refuses a file others can read, naming the file and the fix', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tarang-tok-')), 'ops.token');
    writeFileSync(file, 'x'.repeat(32));
    chmodSync(file, 0o644);
    expect(() => readControlToken(file)).toThrow(new RegExp(`${file}: control token file must be readable by its owner only \\(chmod 600\\); its mode is 644`));
  });

  it('never appears in a log line once loaded', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tarang-tok-')), 'ops.token');
    const t = loadOrCreateControlToken(file);
    let out = '';
    const log = createLogger({ pretty: false, destination: new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) }) });
    log.info(`token is ${t}`);
    log.flush?.();
    expect(out).not.toContain(t);
    expect(out).toContain('[redacted]');
  });
});
