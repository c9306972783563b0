import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { execute } from '../../src/cli/execute.js';
import { createCliLogger } from '../../src/core/cli-log.js';
import { ConfigError } from '../../src/core/errors.js';
import { NetworkException, TokenGenerationBlocked } from '../../src/adapters/broker/errors.js';

function program(action: (opts: { json?: boolean | string }) => Promise<void>): Command {
  const p = new Command('tarang');
  p.command('go').option('--json [file]').action(action);
  return p;
}

async function run(p: Command, args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await execute(p, ['node', 'tarang', ...args], { stderr: (t) => (err += t) });
  return { code, err };
}

describe('execute', () => {
  it('prints a coded error once with its code and exits 78 (EX_CONFIG) for a config error', async () => {
    const r = await run(program(async () => Promise.reject(new ConfigError('--from: expected a date', { field: 'from' }))), ['go']);
    expect(r).toEqual({ code: 78, err: 'tarang: --from: expected a date [CONFIG_INVALID]\n' });
  });

  it('exits with a code a supervisor can act on: 77 when the broker blocks token generation, 69 when it cannot be reached, 1 for other failures, 64 for a wrong flag', async () => {
    const blocked = new TokenGenerationBlocked('TOTP rejected: one more wrong code locks the account; check the clock and the secret', { reason: 'totp' });
    expect((await run(program(async () => Promise.reject(blocked)), ['go'])).code).toBe(77);
    const down = new NetworkException('GET /funds failed: ECONNREFUSED', { endpoint: 'GET /funds' });
    expect((await run(program(async () => Promise.reject(down)), ['go'])).code).toBe(69);
    expect((await run(program(async () => Promise.reject(new Error('boom'))), ['go'])).code).toBe(1);
    const usage = await run(program(async () => undefined), ['go', '--no-such-flag']);
    expect(usage.code).toBe(64);
  });

  it('prints the error as one JSON object under --json, secrets in its context redacted', async () => {
    const r = await run(program(async () => Promise.reject(new ConfigError('bad mpin', { mpin: '123456', field: 'mpin' }))), ['go', '--json']);
    expect(r.code).toBe(78);
    expect(JSON.parse(r.err)).toEqual({ error: { code: 'CONFIG_INVALID', message: 'bad mpin', context: { mpin: '[redacted]', field: 'mpin' } } });
  });

  it('treats --json FILE (backtest) as a path, not as JSON errors', async () => {
    const r = await run(program(async () => Promise.reject(new Error('no data'))), ['go', '--json', 'out.json']);
    expect(r.err).toBe('tarang: no data\n');
  });

  it('drops a logged error that the thrown error repeats, and keeps one that adds something', async () => {
    const r = await run(
      program(async () => {
        const log = createCliLogger('test', () => undefined);
        log.error({ status: 401 }, 'token refused');
        log.error('socket closed early');
        throw new Error('token refused: check the api key');
      }),
      ['go'],
    );
    expect(r.err).toBe('tarang: token refused: check the api key\ntarang: error: socket closed early\n');
  });

  it('exits 0 after a command that succeeds', async () => {
    expect(await run(program(async () => undefined), ['go'])).toEqual({ code: 0, err: '' });
  });
});
