/**
 * One PING before a sweep or a worker starts: a Redis that is down or unreachable is reported at
 * once with its address, instead of the queue clients reconnecting quietly for ever.
 */
import { Redis } from 'ioredis';
import { ConfigError, describeError } from '../../src/core/errors.js';
import { shownUrl } from './queue-protocol.js';

export async function probeRedis(url: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000 });
  // The connect error itself (ECONNREFUSED, ENOTFOUND, NOAUTH); the rejection only says "closed".
  let cause: unknown;
  client.on('error', (e: unknown) => (cause ??= e));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new ConfigError(`--queue ${shownUrl(url)}: Redis does not answer (${describeError(cause ?? e)}); start it, or check the host, port and password`, { url: shownUrl(url) });
  } finally {
    client.disconnect();
  }
}
