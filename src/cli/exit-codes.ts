/**
 * Exit codes a supervisor (systemd, a shell loop, cron) can act on. The values are the BSD
 * sysexits.h ones, which systemd and most service managers already know by meaning:
 *
 *   0   OK            the command did what it was asked
 *   1   FAILURE       a runtime failure (restarting may help)
 *   2-5               `tarang order`: an order that did not go through as asked (src/cli/order-errors.ts):
 *                     2 not confirmed (nothing sent), 3 denied by a risk check, 4 refused by the
 *                     broker, 5 outcome unknown (look at `tarang order book` before acting again)
 *   64  USAGE         a wrong flag or argument (commander printed what)
 *   69  UNAVAILABLE   the broker or the store could not be reached (restart later)
 *   77  AUTH_BLOCKED  the broker refused to issue a token in a way a retry makes worse (a
 *                     rejected TOTP counts toward a lockout, a wrong mpin, an account not enabled):
 *                     a supervisor must NOT restart; a person must look
 *   78  CONFIG        the config or an option is invalid: restarting cannot help
 *
 * docs/operations.md has the sample systemd unit (`RestartPreventExitStatus=64 77 78`).
 */
import { CommanderError } from 'commander';
import { isTarangError } from '../core/errors.js';

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  NOT_CONFIRMED: 2,
  ORDER_DENIED: 3,
  ORDER_REJECTED: 4,
  ORDER_OUTCOME_UNKNOWN: 5,
  USAGE: 64,
  UNAVAILABLE: 69,
  AUTH_BLOCKED: 77,
  CONFIG: 78,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Error codes (TarangError.code) by the exit code they end a command with; others are FAILURE. */
const BY_ERROR_CODE: Readonly<Record<string, ExitCode>> = {
  CONFIG_INVALID: ExitCode.CONFIG,
  CONTROL_TOKEN_INVALID: ExitCode.CONFIG,
  STATIC_IP_INVALID: ExitCode.CONFIG,
  BROKER_TOKEN_GENERATION_BLOCKED: ExitCode.AUTH_BLOCKED,
  BROKER_USER: ExitCode.AUTH_BLOCKED,
  BROKER_NETWORK: ExitCode.UNAVAILABLE,
  BROKER_RATE_LIMITED: ExitCode.UNAVAILABLE,
  STORE_FAILED: ExitCode.UNAVAILABLE,
  TOKEN_STORE_FAILED: ExitCode.UNAVAILABLE,
  NOT_CONFIRMED: ExitCode.NOT_CONFIRMED,
  ORDER_DENIED: ExitCode.ORDER_DENIED,
  ORDER_REJECTED: ExitCode.ORDER_REJECTED,
  ORDER_OUTCOME_UNKNOWN: ExitCode.ORDER_OUTCOME_UNKNOWN,
};

/** The exit code a command that threw `e` ends with. */
export function exitCodeOf(e: unknown): ExitCode {
  if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  if (isTarangError(e)) return BY_ERROR_CODE[e.code] ?? ExitCode.FAILURE;
  return ExitCode.FAILURE;
}
