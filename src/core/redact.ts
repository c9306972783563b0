/**
 * Secrets out of everything tarang prints or logs: any property whose name is a secret key (at any
 * depth, any case, `-` or `_`) becomes "[redacted]", and any registered secret value (a token once
 * obtained, the TOTP secret) is scrubbed from every string. Its own module, free of pino, so the
 * CLI's error printer (src/cli/execute.ts) has it without loading the logger.
 */
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

/** `s` with every registered secret value replaced. */
export function scrubString(s: string): string {
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
