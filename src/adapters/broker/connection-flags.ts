/**
 * The connection flags every broker command takes (`--config`, `--base-url`, `--ws-url`, `--json`).
 * Its own module, importing nothing but commander's types, so `tarang --help` can list them without
 * loading the broker (src/adapters/broker/cli-support.ts builds the broker when a command runs).
 */
import type { Command } from 'commander';

export interface ConnectionFlags {
  readonly config?: string;
  readonly baseUrl?: string;
  readonly wsUrl?: string;
  readonly json?: boolean;
}

/** Adds the connection flags every broker command takes. */
export function withConnection(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'yaml file with a `broker:` section (else TARANG_* environment variables)')
    .option('--base-url <url>', 'REST base URL (TARANG_BASE_URL)')
    .option('--ws-url <url>', 'WebSocket URL (TARANG_WS_URL)')
    .option('--json', 'print JSON instead of a table');
}
