/** What `tarang sim` does (declared in ../commands/sim.ts, which says what it prints and why). */
import { chmod, writeFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { createLogger } from '../../core/log.js';
import { startSimulator } from '../../adapters/simulator/index.js';

export interface SimFlags {
  port: number;
  host: string;
  seed: number;
  speed: number;
  start?: number;
  tsl: string;
  exportsFile?: string;
}

/** A value quoted for a POSIX shell. */
function shellQuote(v: string): string {
  return /^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replaceAll("'", `'\\''`)}'`;
}

/** The `export TARANG_...=` lines that point the broker commands at this simulator (TOTP login, as live). */
export function simEnvLines(sim: { baseUrl: string; wsUrl: string; credentials: { api_key: string; mpin: string; totp_secret: string } }): string {
  const vars: Array<[string, string]> = [
    ['TARANG_BASE_URL', sim.baseUrl],
    ['TARANG_WS_URL', sim.wsUrl],
    ['TARANG_API_KEY', sim.credentials.api_key],
    ['TARANG_MPIN', sim.credentials.mpin],
    ['TARANG_TOTP_SECRET', sim.credentials.totp_secret],
  ];
  return vars.map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
}

export async function runSim(opts: SimFlags): Promise<void> {
  if (opts.tsl !== 'on' && opts.tsl !== 'off') throw new ConfigError(`--tsl: expected on or off, got ${JSON.stringify(opts.tsl)}`);
  const logger = createLogger({ name: 'sim' });
  const sim = await startSimulator({
    host: opts.host,
    port: opts.port,
    seed: opts.seed,
    speed: opts.speed,
    tsl: opts.tsl,
    logger,
    ...(opts.start !== undefined ? { start: opts.start } : {}),
  });
  process.stdout.write(
    `${JSON.stringify({ event: 'sim.ready', base_url: sim.baseUrl, ws_url: sim.wsUrl, ...sim.credentials })}\n`,
  );
  const lines = simEnvLines(sim);
  if (opts.exportsFile) {
    await writeFile(opts.exportsFile, lines, { mode: 0o600 });
    await chmod(opts.exportsFile, 0o600); // writeFile's mode applies only when it creates the file
    process.stderr.write(`tarang sim: ready at ${sim.baseUrl}; in another shell run \`. ${shellQuote(sourceable(opts.exportsFile))}\`, then e.g. \`npx tarang account funds\` (Ctrl-C here stops the simulator)\n`);
  } else {
    process.stderr.write(`# tarang sim is ready at ${sim.baseUrl}. Paste these lines into another shell, then run e.g. \`npx tarang account funds\`:\n${lines}`);
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      logger.info({ signal }, 'simulator stopping');
      void sim.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** `.` looks a bare name up in PATH (POSIX sh): a relative path is given as `./name`. */
function sourceable(file: string): string {
  return isAbsolute(file) || file.startsWith('./') || file.startsWith('../') ? file : `./${file}`;
}
