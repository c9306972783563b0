/**
 * Which shared session store an account's processes use: Redis when a Redis URL is configured
 * (`store:` of the daemon, `broker.redisUrl` / TARANG_REDIS_URL), else a file in the state
 * directory (`<stateDir>/sessions/<account key>.json`). Processes of one account meet only if
 * they pick the same one, so a daemon on Redis wants TARANG_REDIS_URL set for the CLI too.
 */
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { RedisTokenStore } from '../redis/token-store.js';
import type { BrokerConfig } from './config.js';
import { FileTokenStore } from './token-store-file.js';
import { accountKey, MemoryTokenStore, type TokenStore } from './token-store.js';

export interface SharedSessionOptions {
  /** tarang's state folder (`stateDir` of the daemon config, else TARANG_HOME or ~/.tarang). */
  readonly stateDir: string;
  /** Overrides `config.redisUrl` (the daemon's `store:` URL). */
  readonly redisUrl?: string;
}

export function openTokenStore(config: Pick<BrokerConfig, 'baseUrl' | 'apiKey' | 'redisUrl'>, o: SharedSessionOptions, wallClock: Clock): TokenStore {
  // With only a dashboard token nothing is generated, so there is nothing to share.
  if (!config.apiKey) return new MemoryTokenStore(() => wallClock.now());
  const key = accountKey(config.baseUrl, config.apiKey);
  const redisUrl = o.redisUrl ?? config.redisUrl;
  if (redisUrl) return new RedisTokenStore({ url: redisUrl, key });
  return new FileTokenStore({ dir: join(o.stateDir, 'sessions'), key, wallClock });
}
