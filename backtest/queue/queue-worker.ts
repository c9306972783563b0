/**
 * `tarang worker`: takes sweep jobs from the BullMQ queue and answers them. Per job: refuse it when
 * another tarang version built it or its strategy file differs from ours (UnrecoverableError: failed
 * at once, with the reason, never retried); read the candles it names (once per worker: cached by
 * content hash); run its combinations on one of this worker's threads (chunk-lanes.ts); report each
 * combination as job progress; return the answers. A job whose sweep was cancelled stops after the
 * combination it is running. A worker killed mid-job stops renewing the job's lock: another worker's
 * stalled-job check puts the job back on the queue and it runs again.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { describeError } from '../../src/core/errors.js';
import type { SweepJob } from '../sweep/sweep-types.js';
import type { CandleSource } from './candle-publication.js';
import { ChunkError, ChunkLanes } from './chunk-lanes.js';
import { PROTOCOL, QUEUE_NAME, cancelKey, checkQueueName, encodeReplies, sha256File, shownUrl, tarangVersion, type QueueJobData, type QueueJobResult } from './queue-protocol.js';
import { RedisCandleSource } from './redis-candles.js';
import { probeRedis } from './redis-probe.js';

export interface QueueWorkerOptions {
  readonly url: string;
  /** The queue's name (default QUEUE_NAME). */
  readonly queue?: string;
  /** Jobs at once, each on its own thread. */
  readonly concurrency: number;
  /**
   * How long a job's lock lasts without renewal (BullMQ lockDuration), and how often workers look
   * for stalled jobs: a killed worker's job runs again within about twice this. Default 30 s.
   */
  readonly stallMs?: number;
  readonly log: (line: string) => void;
  /** Another CandleSource (a catalog every worker reads); default: the queue's Redis. */
  readonly candles?: CandleSource;
}

export interface RunningQueueWorker {
  readonly name: string;
  /** Waits for the jobs in hand to finish, then disconnects. */
  close(): Promise<void>;
}

const CANCELLED = 'its sweep was cancelled';

function refuse(job: Job<QueueJobData>, why: string): never {
  throw new UnrecoverableError(`job ${job.id}: ${why}`);
}

export async function startQueueWorker(o: QueueWorkerOptions): Promise<RunningQueueWorker> {
  const name = `${hostname()}:${process.pid}`;
  const version = tarangVersion();
  await probeRedis(o.url);
  const candles = o.candles ?? new RedisCandleSource(o.url);
  const redis = new Redis(o.url, { maxRetriesPerRequest: null });
  const lanes = await ChunkLanes.start(o.concurrency);
  const stallMs = o.stallMs ?? 30_000;
  const queueName = checkQueueName(o.queue ?? QUEUE_NAME);

  const processor = async (job: Job<QueueJobData>): Promise<QueueJobResult> => {
    const d = job.data;
    if (d.tarang?.version !== version || d.tarang?.protocol !== PROTOCOL) {
      refuse(job, `built by tarang ${d.tarang?.version ?? '(unknown)'} (queue protocol ${d.tarang?.protocol ?? '?'}); this worker (${name}) runs tarang ${version} (protocol ${PROTOCOL}): run the same tarang version on the coordinator and every worker`);
    }
    if (await redis.exists(cancelKey(d.sweep))) refuse(job, CANCELLED);
    const spec = d.spec;
    if (spec.strategySha256 !== undefined) {
      const path = fileURLToPath(spec.strategy);
      if (!existsSync(path)) refuse(job, `strategy file ${path} is not on ${hostname()}: copy it to the same path on every worker`);
      if (sha256File(path) !== spec.strategySha256) refuse(job, `strategy file ${path} on ${hostname()} differs from the coordinator's: copy the same file to every worker`);
    }
    let series;
    try {
      series = await Promise.all(spec.series.map((r) => candles.load(r)));
    } catch (e) {
      // Candles that are not (or no longer) published will not appear by retrying.
      refuse(job, describeError(e));
    }
    const sweepJob: SweepJob = { series, instruments: spec.instruments, strategy: spec.strategy, params: spec.params, settings: spec.settings, charges: spec.charges, ...(spec.risk ? { risk: spec.risk } : {}), ...(spec.perInstrument ? { perInstrument: spec.perInstrument } : {}), key: d.sweep };
    let cancelled = false;
    const run = lanes.run(sweepJob, d.combos, (done) => {
      void job.updateProgress(done).catch(() => undefined);
      void redis.exists(cancelKey(d.sweep)).then(
        (n) => {
          if (n) {
            cancelled = true;
            run.stop();
          }
        },
        () => undefined,
      );
    });
    let replies;
    try {
      replies = await run.done;
    } catch (e) {
      // A thread that died (memory, a crash) may do better on another try; a job that raised an
      // error (its strategy does not load here) will raise it again.
      if (e instanceof ChunkError && !e.lost) refuse(job, e.message);
      throw e;
    }
    if (cancelled || replies.length < d.combos.length) refuse(job, CANCELLED);
    return { replies: encodeReplies(replies) };
  };

  const connection = new Redis(o.url, { maxRetriesPerRequest: null });
  const worker = new Worker<QueueJobData, QueueJobResult>(queueName, processor, {
    connection,
    concurrency: o.concurrency,
    name,
    lockDuration: stallMs,
    stalledInterval: stallMs,
    // A job that stalls this often (it kills every worker that takes it) fails instead of going round.
    maxStalledCount: 3,
    autorun: false,
  });
  const cancelledSweeps = new Set<string>();
  worker.on('failed', (job, err) => {
    if (!job) return;
    if (err.message.endsWith(CANCELLED)) {
      // One line per cancelled sweep, not one per job it had queued.
      if (!cancelledSweeps.has(job.data.sweep)) o.log(`sweep ${job.data.sweep} was cancelled by its coordinator: dropping its jobs`);
      cancelledSweeps.add(job.data.sweep);
    } else o.log(`job ${job.id} failed: ${err.message}`);
  });
  worker.on('error', (err) => o.log(`queue error: ${describeError(err)}`));
  void worker.run().catch((e: unknown) => o.log(`worker stopped: ${describeError(e)}`));
  await worker.waitUntilReady();
  o.log(`tarang ${version} worker ${name}: ${o.concurrency} lane${o.concurrency === 1 ? '' : 's'} (${lanes.how}) on ${shownUrl(o.url)}, queue ${queueName}`);
  return {
    name,
    async close() {
      await worker.close();
      await lanes.close();
      await candles.close();
      redis.disconnect();
      connection.disconnect();
    },
  };
}
