/**
 * `tarang worker --queue redis://HOST:6379/0 [--concurrency N]`: answers sweep jobs from the
 * queue until stopped (Ctrl-C or SIGTERM: the jobs in hand finish first; a second Ctrl-C leaves at
 * once, and the queue gives those jobs to another worker once their locks lapse). Run one per
 * machine with --concurrency set to its cores. See README "Beyond one machine".
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { ConfigError, describeError } from '../../core/errors.js';
import { checkQueueName } from '../../../backtest/queue/queue-name.js';

/** A redis:// or rediss:// URL, or a ConfigError naming the flag. */
export function queueUrl(flag: string, text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new ConfigError(`${flag}: expected a Redis URL such as redis://127.0.0.1:6379/0, got ${JSON.stringify(text)}`, { flag });
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new ConfigError(`${flag}: expected a redis:// or rediss:// URL, got ${u.protocol}//...`, { flag });
  return text;
}

/** `--queue-name`, or a ConfigError naming the flag. */
export function queueName(text: string): string {
  try {
    return checkQueueName(text);
  } catch (e) {
    throw new ConfigError(`--queue-name: ${describeError(e)}`, { flag: '--queue-name' });
  }
}

function whole(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`${flag}: expected a whole number >= ${min}, got ${JSON.stringify(text)}`, { flag });
  return n;
}

export function register(program: Command): void {
  program
    .command('worker')
    .description('answer backtest sweep jobs from a Redis queue (start one per machine; see `backtest --queue`)')
    .requiredOption('--queue <url>', 'Redis of the queue, e.g. redis://10.0.0.5:6379/0 (the same URL the sweeps use)')
    .option('--queue-name <name>', 'the queue within that Redis (separate pools of workers on one Redis)', 'tarang-sweep')
    .option('--concurrency <n>', 'jobs at once, each on its own thread (default: all cores)')
    .option('--stall-ms <ms>', 'how long a job\'s lock lasts unrenewed: a killed worker\'s job runs again after about twice this', '30000')
    .action(async (opts: { queue: string; queueName: string; concurrency?: string; stallMs: string }) => {
      const url = queueUrl('--queue', opts.queue);
      const concurrency = opts.concurrency !== undefined ? whole('--concurrency', opts.concurrency, 1) : availableParallelism();
      const stallMs = whole('--stall-ms', opts.stallMs, 1000);
      const log = (line: string): void => void process.stderr.write(`tarang worker: ${line}\n`);
      // BullMQ and the sweep lanes load only when a worker starts (not for `tarang --help`).
      const { startQueueWorker } = await import('../../../backtest/queue/queue-worker.js');
      const worker = await startQueueWorker({ url, queue: queueName(opts.queueName), concurrency, stallMs, log });
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string): void => {
          if (stopping) {
            log(`${signal} again: leaving now; the queue hands the jobs in hand to another worker`);
            process.exit(130);
          }
          stopping = true;
          log(`${signal}: finishing the jobs in hand, then stopping (${signal} again to leave now)`);
          void worker.close().then(resolve);
        };
        process.on('SIGINT', () => stop('SIGINT'));
        process.on('SIGTERM', () => stop('SIGTERM'));
      });
      log('stopped');
    });
}
