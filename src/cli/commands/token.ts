/** `tarang token`: generate an access token with api key + mpin + TOTP and print it (or its expiry). */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('token')
      .description('generate an access token with TOTP (needs TARANG_API_KEY, TARANG_MPIN, TARANG_TOTP_SECRET); at most one a minute')
      .option('--quiet', 'print only the token (for `export TARANG_ACCESS_TOKEN=$(tarang token --quiet)`)'),
  ).action(lazyAction(async () => (await import('../actions/token.js')).token));
}
