/**
 * Tests that need Redis talk to a real server at REDIS_URL (default redis://127.0.0.1:6379/15,
 * database 15 so a developer's data is not touched). In CI a missing Redis fails the run; elsewhere
 * the suite is skipped with a message saying how to start one.
 */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';

const HOW = 'start one with `redis-server --daemonize yes --port 6379` (or `docker run -p 6379:6379 redis`), or set REDIS_URL';

/** Resolves true when Redis answers PING; throws in CI when it does not. */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (e) {
    const msg = `Redis not reachable at ${TEST_REDIS_URL}: ${(e as Error).message}; ${HOW}`;
    if (process.env['CI'] === 'true') throw new Error(`${msg} (required when CI=true)`, { cause: e });
    process.stderr.write(`SKIPPED: ${msg}\n`);
    return false;
  } finally {
    client.disconnect();
  }
}
