/**
 * The simulated account's secrets: what the broker's dashboard would show once (api key, TOTP
 * secret, a dashboard token) plus the mpin the user chose and the simulator's own admin key.
 * Random from the OS (never from the seed): a seeded run must not make guessable tokens.
 */
import { randomBytes } from 'node:crypto';
import { Secret } from 'otpauth';
import { registerSecret } from '../../../core/log.js';

export interface SimCredentials {
  /** `x-api-key` of `POST /generate/token`. */
  readonly apiKey: string;
  /** Four to six digits. */
  readonly mpin: string;
  /** RFC 6238 secret, base32 (SHA-1, 6 digits, 30 s). */
  readonly totpSecret: string;
  /** The `x-sim-admin` header value of the control API. */
  readonly adminKey: string;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomMpin(): string {
  return String(randomBytes(4).readUInt32BE(0) % 1_000_000).padStart(6, '0');
}

export function randomTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** Makes (or completes) a credential set and registers every value as a log secret. */
export function makeCredentials(given: Partial<SimCredentials> = {}): SimCredentials {
  const creds: SimCredentials = {
    apiKey: given.apiKey ?? `sim-${randomToken(12)}`,
    mpin: given.mpin ?? randomMpin(),
    totpSecret: given.totpSecret ?? randomTotpSecret(),
    adminKey: given.adminKey ?? randomToken(18),
  };
  for (const v of Object.values(creds)) registerSecret(v);
  return creds;
}
