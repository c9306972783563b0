/**
 * Runs one `tarang` invocation to its end: output and exit 0, or one readable error on stderr and
 * exit 1 (or the error's own code, 2-5, for an order that did not go through). Two things it guarantees that commands cannot forget:
 * - The process stays alive until the command settles. The clock's timers (rate limiter, token
 *   throttle, retry backoff) are unref'd so a daemon can stop without cancelling them; without a
 *   ref'd handle, a one-shot command waiting on one would end with Node's "unsettled top-level
 *   await" (exit 13) and no output.
 * - An error prints once: `tarang: <message> [CODE]`, or with `--json` as one JSON object; errors
 *   the command's logger held back are printed only when they add something (src/core/cli-log.ts).
 */
import type { Command } from 'commander';
import { describeError, isTarangError } from '../core/errors.js';
import { flushHeldErrors } from '../core/cli-log.js';
import { redact } from '../core/log.js';

export interface CliIo {
  readonly stderr: (text: string) => void;
}

/** The error a command ended with, as one line of text or one JSON object. */
export function formatCliError(e: unknown, json: boolean): string {
  const code = isTarangError(e) ? e.code : undefined;
  const message = describeError(e);
  if (json) {
    const context = isTarangError(e) && Object.keys(e.context).length ? { context: redact(e.context) } : {};
    return `${JSON.stringify({ error: { ...(code ? { code } : {}), message: redact(message), ...context } })}\n`;
  }
  return `tarang: ${String(redact(message))}${code ? ` [${code}]` : ''}\n`;
}

/** 1, or the error's own `exitCode` (2-5: the order commands, src/cli/order-errors.ts). */
function exitCodeOf(e: unknown): number {
  const code = isTarangError(e) ? (e as { exitCode?: unknown }).exitCode : undefined;
  return typeof code === 'number' && Number.isInteger(code) && code > 1 && code < 64 ? code : 1;
}

/** Parses and runs `argv`; resolves to the exit code. */
export async function execute(program: Command, argv: readonly string[], io: CliIo = { stderr: (t) => process.stderr.write(t) }): Promise<number> {
  let json = false;
  // `--json` is a boolean on the broker commands; backtest's `--json FILE` is a path, not a mode.
  program.hook('preAction', (_cmd, action) => {
    json = action.opts()['json'] === true;
  });
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  try {
    await program.parseAsync([...argv]);
    flushHeldErrors(undefined, io.stderr);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    io.stderr(formatCliError(e, json));
    flushHeldErrors(describeError(e), io.stderr);
    if (process.env['TARANG_DEBUG'] && e instanceof Error) io.stderr(`${String(redact(e.stack ?? ''))}\n`);
    return exitCodeOf(e);
  } finally {
    clearInterval(keepAlive);
  }
}
