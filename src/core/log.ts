/**
 * Logging with pino: JSON lines to stderr by default, pretty when stderr is a TTY. Secrets are
 * redacted everywhere: any property whose name is a secret key (at any depth, any case, `-` or `_`)
 * becomes "[redacted]", and any registered secret value (a token once obtained, the TOTP secret)
 * is scrubbed from every string, messages included. Logging is not a hot path, so the deep walk
 * is affordable; correctness matters more here than nanoseconds.
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';
import { redact, scrubString } from './redact.js';

export type { Logger } from 'pino';
export { REDACTED, isSecretKey, redact, registerSecret } from './redact.js';
export { silentLogger } from './silent-log.js';

/**
 * pino-pretty (and its colour and date helpers) only for a terminal: loaded on first use, so a
 * daemon writing JSON and a one-shot command never pay for it at start-up.
 */
let prettyFactory: typeof PinoPretty | undefined;
function pretty(options: PinoPretty.PrettyOptions): PinoPretty.PrettyStream {
  prettyFactory ??= createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return prettyFactory(options);
}

export interface LogOptions {
  level?: string;
  /** Pretty, human output; default: when stderr is a TTY. */
  pretty?: boolean;
  /** Where to write; default stderr (fd 2). Tests pass a stream to capture output. */
  destination?: DestinationStream | NodeJS.WritableStream;
  name?: string;
}

export function createLogger(options: LogOptions = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? process.env['TARANG_LOG_LEVEL'] ?? 'info',
    base: options.name ? { name: options.name } : null,
    formatters: { log: (obj) => redact(obj) as Record<string, unknown> },
    serializers: { err: (e: unknown) => redact(e) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubString(a) : a)) as Parameters<typeof method>);
      },
    },
  };
  const usePretty = options.pretty ?? (options.destination === undefined && process.stderr.isTTY === true);
  if (usePretty) {
    const dest = (options.destination as DestinationStream | undefined) ?? pretty({ colorize: true, destination: 2, sync: true });
    return pino(opts, options.destination ? pretty({ colorize: false, destination: dest, sync: true }) : dest);
  }
  return pino(opts, (options.destination as DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: false }));
}
