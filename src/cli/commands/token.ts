/** `tarang token`: generate an access token with api key + mpin + TOTP and print it (or its expiry). */
import type { Command } from 'commander';
import { withBroker, withConnection, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { formatIst } from '../../core/time.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('token')
      .description('generate an access token with TOTP (needs TARANG_API_KEY, TARANG_MPIN, TARANG_TOTP_SECRET); at most one a minute')
      .option('--quiet', 'print only the token (for `export TARANG_ACCESS_TOKEN=$(tarang token --quiet)`)'),
  ).action(async (f: ConnectionFlags & { quiet?: boolean }) =>
    withBroker(f, async (b) => {
      const token = await b.tokens.generate();
      const expires = b.tokens.expiresAt;
      if (f.quiet) process.stdout.write(`${token}\n`);
      else if (f.json) process.stdout.write(`${JSON.stringify({ token, expires_at: expires }, null, 2)}\n`);
      else process.stdout.write(`access token: ${token}\nexpires:      ${expires ? formatIst(expires) : 'unknown'}\n(this replaces the previous TOTP token; set it as TARANG_ACCESS_TOKEN)\n`);
    }),
  );
}
