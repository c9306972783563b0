/**
 * Runs `tarang backtest ...` in-process (commander with exitOverride, progress off) and returns
 * what it wrote to stdout (and, from `backtestCliStreams`, to stderr). For tests of the command's
 * output and files. `cwd` runs it from that folder (relative strategy paths, output files), and
 * restores the working directory afterwards.
 */
import { Command } from 'commander';
import { vi } from 'vitest';
import { register } from '../../src/cli/commands/backtest.js';

export interface BacktestCliOptions {
  /** Folder to run the command from. */
  readonly cwd?: string;
}

export async function backtestCli(args: readonly string[], options: BacktestCliOptions = {}): Promise<string> {
  return (await backtestCliStreams(args, options)).out;
}

/** Like `backtestCli`, with stderr captured too. */
export async function backtestCliStreams(args: readonly string[], options: BacktestCliOptions = {}): Promise<{ out: string; err: string }> {
  const program = new Command('tarang').exitOverride();
  register(program);
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    err += String(s);
    return true;
  });
  const cwd = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    await program.parseAsync(['node', 'tarang', 'backtest', '--no-progress', ...args]);
  } finally {
    if (options.cwd !== undefined) process.chdir(cwd);
    o.mockRestore();
    e.mockRestore();
  }
  return { out, err };
}
