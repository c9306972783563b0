/**
 * What a person reads from the broker commands, in-process against the simulator: funds in rupees
 * with the per-segment balance as a table (not JSON), and --limit honoured on an expired chain.
 */
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { register as account } from '../../../src/cli/commands/account.js';
import { register as contracts } from '../../../src/cli/commands/contracts.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import { startSimulator, type RunningSimulator } from '../../../src/adapters/simulator/index.js';

let sim: RunningSimulator;
const saved = { base: process.env['TARANG_BASE_URL'], token: process.env['TARANG_ACCESS_TOKEN'] };

async function cli(args: string[]): Promise<{ out: string; err: string }> {
  const program = new Command('tarang').exitOverride();
  account(program);
  contracts(program);
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  try {
    await program.parseAsync(['node', 'tarang', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { out, err };
}

beforeAll(async () => {
  sim = await startSimulator({ start: istDateTime('2026-11-20', '12:00'), seed: 7, logger: silentLogger(), venue: { nseEquities: 20, bseEquities: 5 } });
  process.env['TARANG_BASE_URL'] = sim.baseUrl;
  process.env['TARANG_ACCESS_TOKEN'] = sim.credentials.access_token;
}, 60_000);

afterAll(async () => {
  for (const [k, v] of [['TARANG_BASE_URL', saved.base], ['TARANG_ACCESS_TOKEN', saved.token]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sim?.close();
});

describe('broker commands as a person reads them', () => {
  it('account funds shows rupees with Indian grouping and the available balance per segment as a table', async () => {
    const { out } = await cli(['account', 'funds']);
    expect(out).toMatch(/^opening balance +₹10,00,000\.00$/m);
    expect(out).toMatch(/^available for +amount$/m);
    expect(out).toMatch(/^equity intraday \(MIS\) +₹10,00,000\.00$/m);
    expect(out).not.toMatch(/[{}]/);
    const json = JSON.parse((await cli(['account', 'funds', '--json'])).out) as { sodBalance: number };
    expect(json.sodBalance).toBe(1_000_000);
  }, 30_000);

  it('contracts expired --expiry --limit 6 prints six contracts and says how many there were', async () => {
    const expiries = JSON.parse((await cli(['contracts', 'expired', '--underlying', 'NIFTY', '--expiries', '--from', '2026-10-20', '--to', '2026-11-19', '--json'])).out) as string[];
    const { out, err } = await cli(['contracts', 'expired', '--underlying', 'NIFTY', '--expiry', expiries[0]!, '--limit', '6']);
    expect(out.trimEnd().split('\n')).toHaveLength(2 + 6);
    expect(err).toMatch(/^showing the first 6 of \d+ contracts \(--limit\)\n$/);
    const json = JSON.parse((await cli(['contracts', 'expired', '--underlying', 'NIFTY', '--expiry', expiries[0]!, '--limit', '6', '--json'])).out) as unknown[];
    expect(json).toHaveLength(6);
  }, 30_000);

  it('help texts speak of what a command does, not of the specification', () => {
    const program = new Command('tarang');
    account(program);
    contracts(program);
    const texts = program.commands.flatMap((c) => [c.description(), ...c.commands.map((s) => s.description())]);
    expect(texts.filter((t) => /spec \d/.test(t))).toEqual([]);
  });
});
