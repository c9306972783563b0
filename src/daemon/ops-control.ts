/**
 * The daemon's ops endpoint: `/metrics`, `/health` and the control commands of `tarang ctl`
 * (status, halt, resume, flatten), behind the control token (from the config, else the token file
 * in the state dir, created on first use).
 */
import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import { loadOrCreateControlToken } from '../adapters/ops/control-token.js';
import type { DaemonMetrics } from '../adapters/ops/metrics.js';
import { OpsServer, type HealthReport } from '../adapters/ops/server.js';
import type { Engine } from '../engine/engine.js';
import type { DaemonConfig } from './config.js';

export interface OpsControlOptions {
  readonly config: DaemonConfig;
  readonly log: Logger;
  readonly metrics: DaemonMetrics;
  readonly health: () => HealthReport;
  /** The `tarang ctl status` answer; every command answers with it after acting. */
  readonly status: () => Record<string, unknown>;
  /** The running engine; throws when the daemon is not running. */
  readonly engine: () => Engine;
  /** Closes trading until the next session (before a `flatten`), and ends that (on `resume`). */
  readonly closeSession?: (why: string) => Promise<void>;
  readonly reopenSession?: () => Promise<void>;
}

/** Builds the ops server (not started: the caller starts it and learns the port). */
export function createOpsServer(o: OpsControlOptions): OpsServer {
  const c = o.config;
  const token = c.ops.token ?? loadOrCreateControlToken(c.ops.tokenFile ?? join(c.stateDir, 'ops.token'));
  return new OpsServer({
    host: c.ops.host,
    port: c.ops.port,
    token,
    log: o.log,
    metrics: o.metrics,
    health: o.health,
    control: {
      status: () => o.status(),
      halt: async (reason) => {
        o.engine().halt(reason);
        return o.status();
      },
      resume: async () => {
        o.engine().resume();
        await o.reopenSession?.();
        return o.status();
      },
      flatten: async (reason) => {
        await o.closeSession?.(`tarang ctl flatten${reason ? ` (${reason})` : ''}`);
        await o.engine().flatten(reason, c.shutdown.timeoutSeconds * 1000);
        return o.status();
      },
    },
  });
}
