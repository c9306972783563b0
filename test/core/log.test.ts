import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REDACTED, createLogger, redact, registerSecret } from '../../src/core/log.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('logging redacts secrets', () => {
  it('never writes a token, mpin, totp secret or api key held in a logged object', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false, level: 'debug' });
    log.info(
      {
        token: 'eyJhbGciOiJIUzI1NiJ9.secret-token-value',
        request: { headers: { Authorization: 'eyJhbGciOiJIUzI1NiJ9.secret-token-value', 'x-api-key': 'api-key-123456' } },
        body: { mpin: '4321', totp: '123456', totp_secret: 'JBSWY3DPEHPK3PXP' },
        nested: [{ api_key: 'api-key-123456', access_token: 'abcdefgh' }],
      },
      'login',
    );
    const text = out.text();
    for (const secret of ['secret-token-value', 'api-key-123456', '4321', '123456', 'JBSWY3DPEHPK3PXP', 'abcdefgh']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain(REDACTED);
    expect(JSON.parse(text).body.mpin).toBe(REDACTED);
  });

  it('scrubs a registered secret value from messages and unrelated fields', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false });
    registerSecret('tok-7f3a9c2e11');
    log.warn({ url: 'wss://host/ws?auth=tok-7f3a9c2e11' }, 'retrying with tok-7f3a9c2e11');
    log.error({ err: new Error('403 for token tok-7f3a9c2e11') }, 'failed');
    expect(out.text()).not.toContain('tok-7f3a9c2e11');
    expect(out.text()).toContain('retrying with [redacted]');
  });

  it('redacts keys in any case and spelling, and leaves other data alone', () => {
    expect(redact({ 'X-Api-Key': 'k', TOTP_SECRET: 's', price: 1426.5, name: 'RELIANCE' })).toEqual({
      'X-Api-Key': REDACTED,
      TOTP_SECRET: REDACTED,
      price: 1426.5,
      name: 'RELIANCE',
    });
  });
});
