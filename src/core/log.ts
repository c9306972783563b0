/**
 * Logging with pino: JSON lines to stderr by default, pretty when stderr is a TTY. Secrets are
 * redacted everywhere: any property whose name is a secret key (at any depth, any case, `-` or `_`)
 * becomes "[redacted]", and any registered secret value (a token once obtained, the TOTP secret)
 * is scrubbed from every string, messages included. Logging is not a hot path, so the deep walk
 * is affordable; correctness matters more here than nanoseconds.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

const SECRET_KEYS = new Set([
  'token',
  'accesstoken',
  'authorization',
  'mpin',
  'totp',
  'totpsecret',
  'xapikey',
  'apikey',
  'password',
  'secret',
  'adminkey',
  'xsimadmin',
]);

export const REDACTED = '[redacted]';

const secretValues = new Set<string>();

/** Marks a value as secret: it will be scrubbed from every string logged from now on. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secretValues.add(value);
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_\s]/g, ''));
}

function scrubString(s: string): string {
  let out = s;
  for (const v of secretValues) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}

/** Returns a copy of `value` with secrets redacted (keys by name, values by registry). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) {
    const e: Record<string, unknown> = { type: value.name, message: scrubString(value.message) };
    if (value.stack) e['stack'] = scrubString(value.stack);
    for (const [k, v] of Object.entries(value)) e[k] = isSecretKey(k) ? REDACTED : redact(v, depth + 1);
    return e;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Map) return redact(Object.fromEntries(value), depth);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) && v !== undefined ? REDACTED : redact(v, depth + 1);
  return out;
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

/** A logger that discards everything (tests, benches). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
