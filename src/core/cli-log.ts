/**
 * The logger of one-shot CLI commands: one readable line per record on stderr (`tarang: warning:
 * read failed; retrying (endpoint=GET /funds, attempt=1)`), never pino JSON. Records at error
 * level are held, not printed: a failing command throws, and the CLI prints that error once, then
 * whatever held errors say something else (`flushHeldErrors`). A daemon keeps `createLogger`.
 * Secrets are redacted by `createLogger`'s formatters before a line reaches this sink.
 */
import { pino, type Logger } from 'pino';
import { createLogger } from './log.js';
import { holdError } from './held-errors.js';

export { flushHeldErrors } from './held-errors.js';

const LEVEL_WORDS: Readonly<Record<number, string>> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warning', 50: 'error', 60: 'fatal' };
const SKIP = new Set(['level', 'time', 'msg', 'name', 'pid', 'hostname']);

/** One pino record as a line a person reads. */
export function formatCliRecord(rec: Readonly<Record<string, unknown>>): string {
  const level = LEVEL_WORDS[Number(rec['level'])] ?? 'log';
  const details = Object.entries(rec)
    .filter(([k, v]) => !SKIP.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${detail(v)}`);
  const msg = typeof rec['msg'] === 'string' ? rec['msg'] : '';
  return `tarang: ${level}: ${msg}${details.length ? ` (${details.join(', ')})` : ''}`;
}

function detail(v: unknown): string {
  if (v && typeof v === 'object' && 'message' in v && typeof (v as { message: unknown }).message === 'string') return (v as { message: string }).message;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A logger for a one-shot command; level from TARANG_LOG_LEVEL, default warn. */
export function createCliLogger(name: string, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const sink = {
    write(chunk: string): void {
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(chunk) as Record<string, unknown>;
      } catch {
        write(chunk);
        return;
      }
      const line = `${formatCliRecord(rec)}\n`;
      if (Number(rec['level']) >= 50) holdError(line, typeof rec['msg'] === 'string' ? rec['msg'] : '');
      else write(line);
    },
  };
  return createLogger({ name, level: process.env['TARANG_LOG_LEVEL'] ?? 'warn', destination: sink as unknown as pino.DestinationStream, pretty: false });
}
