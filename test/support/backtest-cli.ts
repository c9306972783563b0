/**
 * Runs `tarang backtest ...` in-process (commander with exitOverride, progress off) and returns
 * what it wrote to stdout; stderr is swallowed. For tests of the command's output and files.
 */
import { Command } from 'commander';
import { vi } from 'vitest';
import { register } from '../../src/cli/commands/backtest.js';

export async function backtestCli(args: readonly string[]): Promise<string> {
  const program = new Command('tarang').exitOverride();
  register(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'tarang', 'backtest', '--no-progress', ...args]);
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
  return out;
}
