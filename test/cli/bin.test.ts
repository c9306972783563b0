import { describe, expect, it } from 'vitest';
import { tarang } from '../support/tarang-bin.js';

describe('tarang bin', () => {
  it('prints its help with the subcommands', async () => {
    const r = await tarang(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: tarang');
    expect(r.stdout).toContain('demo');
  });

  it('fails with a clear message on an unknown command', async () => {
    const r = await tarang(['no-such-command']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("unknown command 'no-such-command'");
  });
});
