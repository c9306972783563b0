/**
 * The bearer token of the daemon's control API. Either given in config (`ops.token`, usually as
 * `${TARANG_OPS_TOKEN}`) or kept in a local file readable only by its owner (0600), created with
 * a random value on first start. `tarang ctl` reads the same file. The token is registered as a
 * secret so it never reaches a log.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TarangError } from '../../core/errors.js';
import { registerSecret } from '../../core/log.js';

export class ControlTokenError extends TarangError {
  readonly code = 'CONTROL_TOKEN_INVALID' as const;
}

const MIN_LENGTH = 16;

/** Reads the token file, creating it (0600, random 256-bit hex) when absent. */
export function loadOrCreateControlToken(file: string): string {
  let existing: string | undefined;
  try {
    existing = readControlToken(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (existing !== undefined) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  // `wx`: never clobber a token another daemon just wrote; mode applies at creation.
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  registerSecret(token);
  return token;
}

/** Reads an existing token file; refuses one that others can read, or a trivially short token. */
export function readControlToken(file: string): string {
  const st = statSync(file);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new ControlTokenError(`${file}: control token file must be readable by its owner only (chmod 600); its mode is ${(st.mode & 0o777).toString(8)}`, { file });
  }
  const token = readFileSync(file, 'utf8').trim();
  validateControlToken(token, file);
  registerSecret(token);
  return token;
}

export function validateControlToken(token: string, where: string): void {
  if (token.length < MIN_LENGTH || /\s/.test(token)) {
    throw new ControlTokenError(`${where}: control token must be at least ${MIN_LENGTH} characters without spaces`, { where });
  }
}
