/**
 * Runs one `tarang` invocation to its end: output and exit 0, or one readable error on stderr and
 * an exit code that says what kind of failure it was (exit-codes.ts). Two things it guarantees
 * that commands cannot forget:
 * - The process stays alive until the command settles. The clock's timers (rate limiter, token
 *   throttle, retry backoff) are unref'd so a daemon can stop without cancelling them; without a
 *   ref'd handle, a one-shot command waiting on one would end with Node's "unsettled top-level
 *   await" (exit 13) and no output.
 * - An error prints once: `tarang: <message> [CODE]`, or with `--json` as one JSON object; errors
 *   the command's logger held back are printed only when they add something (src/core/cli-log.ts).
 */
import { CommanderError, type Command } from 'commander';
import { describeError, isTarangError } from '../core/errors.js';
import { flushHeldErrors } from '../core/held-errors.js';
import { redact } from '../core/redact.js';
import { exitCodeOf } from './exit-codes.js';

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

/** Parses and runs `argv`; resolves to the exit code. */
export async function execute(program: Command, argv: readonly string[], io: CliIo = { stderr: (t) => process.stderr.write(t) }): Promise<number> {
  let json = false;
  // `--json` is a boolean on the broker commands; backtest's `--json FILE` is a path, not a mode.
  program.hook('preAction', (_cmd, action) => {
    json = action.opts()['json'] === true;
  });
  // Usage errors throw (commander has printed them) instead of exiting with its own code.
  const throwOnUsage = (c: Command): void => {
    c.exitOverride();
    for (const sub of c.commands) throwOnUsage(sub);
  };
  throwOnUsage(program);
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  try {
    await program.parseAsync([...argv]);
    flushHeldErrors(undefined, io.stderr);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return exitCodeOf(e);
    io.stderr(formatCliError(e, json));
    flushHeldErrors(describeError(e), io.stderr);
    if (process.env['TARANG_DEBUG'] && e instanceof Error) io.stderr(`${String(redact(e.stack ?? ''))}\n`);
    return exitCodeOf(e);
  } finally {
    clearInterval(keepAlive);
  }
}
