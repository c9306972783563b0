/**
 * A sweep on the BullMQ queue (`tarang backtest --sweep ... --queue URL`): the coordinator's side.
 * It publishes the candles once by content hash (candle-publication.ts), cuts the grid into chunks
 * and adds one job per chunk with a deterministic id (the sweep's content hash and the chunk
 * number: the same sweep run again finds its finished chunks and reuses them, or attaches to
 * chunks still queued), follows the queue's events for the progress bar, and ranks the answers with
 * the local sweep's code. Each combination counts once, whichever worker answered it and however
 * often a stalled chunk ran. A chunk that failed (after its retries, or at once when the worker
 * refused it) ends the sweep with its reason; so does an abort (Ctrl-C), after removing the
 * sweep's queued jobs and telling workers to stop its running ones.
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ConfigError, TarangError, describeError } from '../../src/core/errors.js';
import { fileURLToPath } from 'node:url';
import { rankRows, type RankMetric, type SweepRow } from '../sweep/sweep-rank.js';
import type { SweepJob, SweepParams, SweepReply } from '../sweep/sweep-types.js';
import type { CandlePublisher } from './candle-publication.js';
import { PROTOCOL, QUEUE_NAME, cancelKey, checkQueueName, decodeReplies, defaultChunk, jobId, sha256File, shownUrl, sweepId, tarangVersion, type QueueJobData, type QueueJobResult, type QueueSweepSpec } from './queue-protocol.js';
import { RedisCandlePublisher } from './redis-candles.js';
import { probeRedis } from './redis-probe.js';

export interface QueueSweepOptions {
  readonly url: string;
  /** The queue's name (default QUEUE_NAME); the workers must use the same. */
  readonly queue?: string;
  readonly job: SweepJob;
  readonly grid: readonly SweepParams[];
  readonly rank: RankMetric;
  /** Combinations per job (default: defaultChunk). */
  readonly chunk?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** Notes for the user (no worker connected yet, chunks reused). */
  readonly onNote?: (line: string) => void;
  /** Aborting cancels the sweep's jobs and rejects with SweepCancelled. */
  readonly signal?: AbortSignal;
  /** Where the candles go (default: the queue's Redis). */
  readonly publisher?: CandlePublisher;
}

/** The sweep was cancelled (Ctrl-C) before it finished. */
export class SweepCancelled extends TarangError {
  readonly code = 'SWEEP_CANCELLED' as const;
}

/** A chunk failed on a worker: the sweep has no complete result. */
export class SweepJobFailed extends TarangError {
  readonly code = 'SWEEP_JOB_FAILED' as const;
}

export interface QueueSweepResult {
  readonly rows: SweepRow[];
  readonly sweep: string;
  readonly jobs: number;
  /** Chunks answered by an earlier run of the same sweep (kept by the queue). */
  readonly reused: number;
}

const KEEP_COMPLETED_S = 3_600;
const KEEP_FAILED_S = 86_400;

function strategyHash(path: string): string {
  try {
    return sha256File(path);
  } catch (e) {
    throw new ConfigError(`strategy file ${path}: cannot read it (${describeError(e)})`, { path });
  }
}

export async function queueSweep(o: QueueSweepOptions): Promise<QueueSweepResult> {
  const total = o.grid.length;
  if (total === 0) throw new ConfigError('the sweep grid is empty', {});
  const chunk = o.chunk ?? defaultChunk(total);
  const queueName = checkQueueName(o.queue ?? QUEUE_NAME);
  await probeRedis(o.url);
  const publisher = o.publisher ?? new RedisCandlePublisher(o.url);
  const connection = new Redis(o.url, { maxRetriesPerRequest: null });
  const eventsConnection = new Redis(o.url, { maxRetriesPerRequest: null });
  const queue = new Queue<QueueJobData, QueueJobResult>(queueName, { connection });
  const events = new QueueEvents(queueName, { connection: eventsConnection, autorun: false });
  try {
    const series = await publisher.publish(o.job.series);
    const strategyFile = o.job.strategy.startsWith('file:') ? fileURLToPath(o.job.strategy) : undefined;
    const spec: QueueSweepSpec = {
      series,
      instruments: o.job.instruments,
      strategy: o.job.strategy,
      ...(strategyFile ? { strategySha256: strategyHash(strategyFile) } : {}),
      params: o.job.params,
      settings: o.job.settings,
      charges: o.job.charges,
      ...(o.job.risk ? { risk: o.job.risk } : {}),
      ...(o.job.perInstrument ? { perInstrument: o.job.perInstrument } : {}),
    };
    const sweep = sweepId(spec, o.grid, chunk);
    const chunks: QueueJobData[] = [];
    for (let at = 0, n = 0; at < total; at += chunk, n++) {
      chunks.push({ tarang: { version: tarangVersion(), protocol: PROTOCOL }, sweep, spec, combos: o.grid.slice(at, at + chunk).map((params, k) => ({ index: at + k, params })) });
    }
    const ids = chunks.map((_c, n) => jobId(sweep, n));
    // One waiter per job listens for the queue's 'closing'.
    queue.setMaxListeners(ids.length + 10);
    const sizeOf = new Map(ids.map((id, n) => [id, chunks[n]!.combos.length]));

    const rows: SweepRow[] = o.grid.map((params, index) => ({ index, params }));
    const answered = new Uint8Array(total);
    const inFlight = new Map<string, number>();
    let settledCombos = 0;
    const report = (): void => o.onProgress?.(Math.min(total, settledCombos + [...inFlight.values()].reduce((a, b) => a + b, 0)), total);
    const settle = (id: string, replies: readonly SweepReply[]): void => {
      inFlight.delete(id);
      for (const r of replies) {
        if (answered[r.index]) continue;
        answered[r.index] = 1;
        settledCombos++;
        rows[r.index] = r.error !== undefined ? { ...rows[r.index]!, error: r.error } : { ...rows[r.index]!, metrics: r.metrics, finalEquity: r.finalEquity };
      }
      report();
    };
    events.on('progress', ({ jobId: id, data }) => {
      if (sizeOf.has(id) && typeof data === 'number') {
        inFlight.set(id, data);
        report();
      }
    });

    // Listen before adding, so no answer can pass unseen.
    void events.run().catch(() => undefined);
    await events.waitUntilReady();
    await connection.del(cancelKey(sweep));

    // Chunks already on the queue from an earlier run of this very sweep.
    let reused = 0;
    const toAdd: number[] = [];
    for (let n = 0; n < ids.length; n++) {
      const existing = await queue.getJob(ids[n]!);
      const state = existing ? await existing.getState() : 'unknown';
      if (state === 'completed') reused++;
      if (existing && state === 'failed') await existing.remove();
      if (!existing || state === 'failed' || state === 'unknown') toAdd.push(n);
    }
    if (reused > 0) o.onNote?.(`${reused} of ${ids.length} chunks were answered by an earlier run of this sweep (kept ${KEEP_COMPLETED_S / 60} minutes): reusing them`);
    await queue.addBulk(
      toAdd.map((n) => ({
        name: 'sweep-chunk',
        data: chunks[n]!,
        opts: {
          jobId: ids[n]!,
          // A worker that dies mid-job is handled by stall detection; these retries are for errors
          // that may pass (Redis hiccups); refusals (UnrecoverableError) skip them.
          attempts: 3,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: KEEP_COMPLETED_S },
          removeOnFail: { age: KEEP_FAILED_S },
        },
      })),
    );
    // Before the first progress report, so the note does not cut through a progress bar.
    if ((await queue.getWorkers()).length === 0) {
      o.onNote?.(`no worker is connected to ${shownUrl(o.url)} yet: start one with \`tarang worker --queue ${shownUrl(o.url)}${queueName !== QUEUE_NAME ? ` --queue-name ${queueName}` : ''}\` (the jobs wait for it)`);
    }
    report();

    const cancel = async (): Promise<void> => {
      await connection.set(cancelKey(sweep), '1', 'EX', KEEP_FAILED_S);
      // A running job cannot be removed (its worker holds the lock): the cancel key stops it.
      await Promise.all(ids.map((id) => queue.remove(id).catch(() => 0)));
    };
    let abortListener: (() => void) | undefined;
    const aborted = new Promise<never>((_res, rej) => {
      abortListener = () => rej(new SweepCancelled(`sweep cancelled: its ${ids.length} jobs were removed from the queue or told to stop`, { sweep }));
      if (o.signal?.aborted) abortListener();
      else o.signal?.addEventListener('abort', abortListener, { once: true });
    });
    aborted.catch(() => undefined);
    const wait = async (id: string): Promise<void> => {
      const job = (await queue.getJob(id)) as Job<QueueJobData, QueueJobResult> | undefined;
      if (!job) throw new SweepJobFailed(`sweep job ${id} vanished from the queue (removed by someone else?)`, { sweep, job: id });
      let result: QueueJobResult;
      try {
        result = await job.waitUntilFinished(events);
      } catch (e) {
        const c = chunks[ids.indexOf(id)]!.combos;
        throw new SweepJobFailed(`combinations ${c[0]!.index}..${c[c.length - 1]!.index} (job ${id}) failed: ${describeError(e)}`, { sweep, job: id });
      }
      settle(id, decodeReplies(result.replies));
    };
    try {
      await Promise.race([Promise.all(ids.map(wait)), aborted]);
    } catch (e) {
      await cancel();
      throw e;
    } finally {
      if (abortListener) o.signal?.removeEventListener('abort', abortListener);
    }
    const missing = rows.filter((_r, i) => !answered[i]).map((r) => r.index);
    if (missing.length) throw new SweepJobFailed(`combinations ${missing.slice(0, 5).join(', ')} got no answer`, { sweep });
    return { rows: rankRows(rows, o.rank), sweep, jobs: ids.length, reused };
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    await publisher.close();
    connection.disconnect();
    eventsConnection.disconnect();
  }
}
