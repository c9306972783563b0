import { describe, expect, it } from 'vitest';
import { tarang } from '../support/tarang-bin.js';

describe('tarang bin', () => {
  it('prints its help with the subcommands', async () => {
    const r = await tarang(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: tarang');
    expect(r.stdout).toContain('demo');
  });

  it('lists every command in its help, and each command its options (declared without loading the command)', async () => {
    const r = await tarang(['--help']);
    for (const c of ['demo', 'sim', 'run', 'paper', 'ctl', 'backtest', 'account', 'quote', 'instruments', 'contracts', 'candles', 'token']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    const bt = await tarang(['backtest', '--help']);
    expect(bt.code).toBe(0);
    expect(bt.stdout).toContain('--rank <metric>');
    expect(bt.stdout).toContain('sharpe, sortino');
    expect(bt.stdout).toContain('--both-touched <rule>');
    const ctl = await tarang(['ctl', '--help']);
    expect(ctl.stdout).toContain('one of status, halt, resume, flatten');
    const funds = await tarang(['account', 'funds', '--help']);
    expect(funds.stdout).toContain('--base-url <url>');
  });

  it('fails with a clear message on an unknown command', async () => {
    const r = await tarang(['no-such-command']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("unknown command 'no-such-command'");
  });
});
