/** What `tarang token` does (declared in ../commands/token.ts). */
import { withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { formatIst } from '../../core/time.js';

export async function token(f: ConnectionFlags & { quiet?: boolean }): Promise<void> {
  await withBroker(f, async (b) => {
    const token = await b.tokens.generate();
    const expires = b.tokens.expiresAt;
    if (f.quiet) process.stdout.write(`${token}\n`);
    else if (f.json) process.stdout.write(`${JSON.stringify({ token, expires_at: expires }, null, 2)}\n`);
    else process.stdout.write(`access token: ${token}\nexpires:      ${expires ? formatIst(expires) : 'unknown'}\n(this replaces the previous TOTP token; set it as TARANG_ACCESS_TOKEN)\n`);
  });
}
