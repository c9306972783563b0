/** What `tarang ctl` does (declared in ../commands/ctl.ts). */
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { registerSecret } from '../../core/log.js';
import { loadDaemonConfig } from '../../daemon/config.js';
import { ControlCommand, sendControl } from '../../adapters/ops/ctl-client.js';
import { readControlToken } from '../../adapters/ops/control-token.js';
import { defaultStateDir } from '../../daemon/state-dir.js';
import { statusText } from '../status-text.js';

export interface CtlFlags {
  config?: string;
  url?: string;
  tokenFile?: string;
  reason?: string;
  json?: boolean;
}

const COMMANDS = Object.values(ControlCommand);

export async function ctl(command: string, flags: CtlFlags): Promise<void> {
  if (!COMMANDS.includes(command as ControlCommand)) {
    throw new ConfigError(`ctl: unknown command ${JSON.stringify(command)}; expected one of ${COMMANDS.join(', ')}`);
  }
  const { url, token } = resolveTarget(flags);
  const answer = await sendControl({ url, token, command: command as ControlCommand, ...(flags.reason ? { reason: flags.reason } : {}) });
  process.stdout.write(flags.json ? `${JSON.stringify(answer, null, 2)}\n` : formatAnswer(command, answer));
}

function resolveTarget(flags: CtlFlags): { url: string; token: string } {
  let host = '127.0.0.1';
  let port = 9464;
  let tokenFile = join(defaultStateDir(), 'ops.token');
  let token: string | undefined;
  if (flags.config) {
    const c = loadDaemonConfig(flags.config);
    host = c.ops.host === '0.0.0.0' || c.ops.host === '::' ? '127.0.0.1' : c.ops.host;
    port = c.ops.port;
    tokenFile = c.ops.tokenFile ?? join(c.stateDir, 'ops.token');
    token = c.ops.token;
  }
  if (flags.tokenFile) tokenFile = flags.tokenFile;
  const envToken = process.env['TARANG_OPS_TOKEN'];
  if (envToken) {
    registerSecret(envToken);
    token ??= envToken;
  }
  if (flags.tokenFile || token === undefined) token = readTokenFile(tokenFile);
  return { url: flags.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`, token };
}

function readTokenFile(file: string): string {
  try {
    return readControlToken(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new ConfigError(`ctl: no control token at ${file}; the daemon creates it when it starts (give --config, --token-file or TARANG_OPS_TOKEN)`, { file });
  }
}

/** Every command answers with the status after acting; show it the same way, under what was done. */
function formatAnswer(command: string, a: Record<string, unknown>): string {
  return command === 'status' ? statusText(a) : `${command}: done\n${statusText(a)}`;
}
