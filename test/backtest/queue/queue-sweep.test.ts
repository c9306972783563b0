/**
 * Sweeps through a real BullMQ queue on a real Redis, answered by `tarang worker` processes on
 * loopback. Each test file uses its own queue name and removes its queue, candles and keys.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { candleKey } from '../../../backtest/queue/redis-candles.js';
import { seriesHash } from '../../../backtest/queue/candle-publication.js';
import { PROTOCOL, cancelKey, sweepId, type QueueJobData } from '../../../backtest/queue/queue-protocol.js';
import { queueSweep, SweepCancelled, SweepJobFailed } from '../../../backtest/queue/queue-sweep.js';
import { gridOf, parseSweep } from '../../../backtest/sweep/sweep-grid.js';
import { runSweep } from '../../../backtest/sweep/sweep.js';
import type { SweepJob } from '../../../backtest/sweep/sweep-types.js';
import { TEST_REDIS_URL, redisAvailable } from '../../support/redis.js';
import { startTarang, type RunningBin } from '../../support/tarang-bin.js';
import { backtestCli } from '../../support/backtest-cli.js';

const available = await redisAvailable();

describe.skipIf(!available)('sweeps on the BullMQ queue (real Redis, worker processes)', () => {
  const queueName = `tarang-test-${randomUUID().slice(0, 8)}`;
  const grid = gridOf([parseSweep('fast=5..40:5'), parseSweep('slow=45..75:10')]);
  let dir: string;
  let job: SweepJob;
  let admin: Redis;
  let queue: Queue<QueueJobData>;
  const workers: RunningBin[] = [];
  const sweeps = new Set<string>();
  const published: string[] = [];
  /** Keeps the id of a sweep that ended in an error, for its cancel key to be removed. */
  const forget = (e: unknown): void => {
    const sweep = (e as { context?: { sweep?: unknown } }).context?.sweep;
    if (typeof sweep === 'string') sweeps.add(sweep);
  };

  const startWorker = async (): Promise<RunningBin> => {
    const w = startTarang(['worker', '--queue', TEST_REDIS_URL, '--queue-name', queueName, '--concurrency', '1', '--stall-ms', '1000']);
    workers.push(w);
    await w.waitFor(/worker \S+: 1 lane/, 'the worker is connected');
    return w;
  };
  /** A worker for tests that do not kill one. */
  let spare: RunningBin | undefined;
  const aWorker = async (): Promise<void> => {
    spare ??= await startWorker();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tarang-queue-'));
    const file = join(dir, 's.csv');
    // Long enough that a combination takes a while: the kill below lands with 7 of its job's 8 to go.
    writeSyntheticMinuteCsv(file, { candles: 20_000, seed: 11 });
    const { series } = loadCsvCandles(file);
    job = { series, instruments: [...instrumentsForSeries(series).values()], strategy: 'sma-cross', params: { instrument: series[0]!.instrument, qty: 10 }, settings: { cash: 10_000_000 }, charges: 'none' };
    admin = new Redis(TEST_REDIS_URL);
    queue = new Queue(queueName, { connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }) });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await queue.obliterate({ force: true });
    await queue.close();
    await admin.del(...[seriesHash(job.series[0]!), ...published].map(candleKey), ...[...sweeps].map(cancelKey));
    admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the local sweep\'s ranked rows, each combination once, though a worker is killed with SIGKILL mid-job', async () => {
    const local = await runSweep({ job, grid, rank: 'sharpe', workers: 1 });
    const [victim] = await Promise.all([startWorker(), startWorker(), startWorker()]);
    const victimName = new RegExp(`:${victim!.pid}$`);
    // Kill the first worker as soon as it has answered the first combination of an 8-combination job.
    const events = new QueueEvents(queueName, { connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }) });
    await events.waitUntilReady();
    let killedJob: string | undefined;
    events.on('progress', ({ jobId, data }) => {
      if (killedJob !== undefined || data !== 1) return;
      void queue.getJob(jobId).then((j) => {
        if (killedJob === undefined && j?.processedBy !== undefined && victimName.test(j.processedBy)) {
          killedJob = jobId;
          void victim!.kill('SIGKILL');
        }
      });
    });
    const seen: number[] = [];
    const r = await queueSweep({ url: TEST_REDIS_URL, queue: queueName, job, grid, rank: 'sharpe', chunk: 8, onProgress: (d) => seen.push(d) });
    await events.close();
    sweeps.add(r.sweep);
    expect(r.jobs).toBe(4);
    expect(r.rows).toHaveLength(32);
    expect(new Set(r.rows.map((x) => x.index)).size).toBe(32);
    expect(r.rows).toEqual(local);
    expect(seen.at(-1)).toBe(32);
    // The job the killed worker held was found stalled and run again, by another worker.
    expect(killedJob).toBeDefined();
    const again = await queue.getJob(killedJob!);
    expect(again?.stalledCounter).toBe(1);
    expect(again?.processedBy).not.toMatch(victimName);
  });

  it('writes the same table, JSON and HTML through the CLI as a local sweep, for a portfolio of two instruments', async () => {
    await aWorker();
    const folder = join(dir, 'two');
    mkdirSync(folder);
    for (const [name, seed] of [['AAA', 1], ['BBB', 2]] as const) writeSyntheticMinuteCsv(join(folder, `${name}.csv`), { candles: 1_500, seed, symbol: name });
    const args = ['--data', folder, '--param', 'qty=10', '--sweep', 'fast=5,10', '--sweep', 'slow=30,40', '--charges', 'equity-intraday', '--rank', 'total_return'];
    const out = (name: string): string[] => ['--json', join(dir, `${name}.json`), '--html', join(dir, `${name}.html`)];
    const local = await backtestCli([...args, '--workers', '1', ...out('local')]);
    const queued = await backtestCli([...args, '--queue', TEST_REDIS_URL, '--queue-name', queueName, '--chunk', '3', ...out('queued')]);
    expect(queued).toBe(local);
    expect(readFileSync(join(dir, 'queued.json'), 'utf8')).toBe(readFileSync(join(dir, 'local.json'), 'utf8'));
    expect(readFileSync(join(dir, 'queued.html'), 'utf8')).toBe(readFileSync(join(dir, 'local.html'), 'utf8'));
    const doc = JSON.parse(readFileSync(join(dir, 'queued.json'), 'utf8')) as { rows: unknown[] };
    expect(doc.rows).toHaveLength(4);
    for (const name of ['AAA', 'BBB']) {
      const { series } = loadCsvCandles(join(folder, `${name}.csv`));
      published.push(seriesHash(series[0]!));
    }
  });

  it('reports a job a worker refuses (another tarang version) at once, without retrying it', async () => {
    await aWorker();
    const spec = { series: [], instruments: [], strategy: 'sma-cross', params: {}, settings: { cash: 1 }, charges: 'none' };
    const id = `old-${randomUUID().slice(0, 8)}`;
    const events = new QueueEvents(queueName, { connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }) });
    await events.waitUntilReady();
    const added = await queue.add('sweep-chunk', { tarang: { version: '0.0.1-old', protocol: PROTOCOL }, sweep: sweepId(spec, [], 1), spec, combos: [{ index: 0, params: {} }] }, { jobId: id, attempts: 5 });
    await expect(added.waitUntilFinished(events)).rejects.toThrow(/built by tarang 0\.0\.1-old .* runs tarang 0\.1\.0 .*run the same tarang version/);
    await events.close();
    const failed = await queue.getJob(id);
    expect(failed?.attemptsMade).toBe(1);
  });

  it('fails the sweep with the reason when its strategy cannot be loaded on the workers', async () => {
    await aWorker();
    const bad: SweepJob = { ...job, strategy: 'no-such-strategy' };
    const p = queueSweep({ url: TEST_REDIS_URL, queue: queueName, job: bad, grid: grid.slice(0, 2), rank: 'sharpe' });
    p.catch(forget);
    await expect(p).rejects.toThrow(SweepJobFailed);
    // Whichever job a worker takes first fails first: the message names that one.
    await expect(p).rejects.toThrow(/combinations (\d+)\.\.\1 \(job (sweep-\w+-\d+)\) failed: job \2: unknown strategy "no-such-strategy"/);
  });

  it('cancels the sweep\'s jobs when aborted', async () => {
    await aWorker();
    const abort = new AbortController();
    const big = gridOf([parseSweep('fast=5..40:1'), parseSweep('slow=45..75:10')]);
    const p = queueSweep({ url: TEST_REDIS_URL, queue: queueName, job, grid: big, rank: 'sharpe', onProgress: (d) => d >= 2 && abort.abort(), signal: abort.signal });
    p.catch(forget);
    await expect(p).rejects.toThrow(SweepCancelled);
    // Nothing of the sweep is left to run: the queued jobs were removed, the running ones stop.
    expect(await queue.getWaitingCount()).toBe(0);
  });
});
