/**
 * The threads a queue worker runs its jobs on (`tarang worker --concurrency N`: N threads). Each is
 * a sweep worker (backtest/sweep/sweep-worker.ts, the same code a local sweep's lanes run), started
 * when the worker starts and kept for its lifetime, so every job after the first finds it loaded
 * and optimised. Combinations run off the main thread, which stays free for BullMQ: it renews the
 * job locks on time however long a combination takes (a lock that lapsed would let another worker
 * take the job as stalled and run it twice). The candle columns are SharedArrayBuffers
 * (redis-candles.ts): every thread reads the same bytes.
 */
import { Worker } from 'node:worker_threads';
import { describeError } from '../../src/core/errors.js';
import { claimTable, closeClaims } from '../sweep/sweep-claims.js';
import type { SweepJob, SweepReply, SweepWorkerCommand, SweepWorkerMessage } from '../sweep/sweep-types.js';
import { workerEntry, type WorkerEntry } from '../sweep/worker-entry.js';
import type { QueueCombo } from './queue-protocol.js';

/** A chunk that could not run: `lost` when the thread died (worth another try), else the error the job raised. */
export class ChunkError extends Error {
  constructor(
    message: string,
    readonly lost: boolean,
  ) {
    super(message);
  }
}

export interface ChunkRun {
  /** Stops after the combination each thread is running (a cancelled sweep). */
  stop(): void;
  readonly done: Promise<SweepReply[]>;
}

export class ChunkLanes {
  private readonly free: Worker[] = [];
  private entry: WorkerEntry | undefined;
  private closed = false;

  private constructor(private readonly size: number) {}

  /** Starts `size` threads loading the engine now, before any job comes. */
  static async start(size: number): Promise<ChunkLanes> {
    const lanes = new ChunkLanes(size);
    lanes.entry = await workerEntry('bundle');
    for (let k = 0; k < size; k++) lanes.free.push(lanes.spawn());
    return lanes;
  }

  get how(): string {
    return this.entry?.how ?? 'none';
  }

  private spawn(): Worker {
    const e = this.entry!;
    const w = 'url' in e.spec ? new Worker(e.spec.url) : new Worker(e.spec.code, { eval: true });
    // An idle thread that dies is replaced when next taken.
    w.on('error', () => undefined);
    return w;
  }

  private take(): Worker {
    for (;;) {
      const w = this.free.pop();
      if (!w) return this.spawn();
      if (w.threadId >= 0) return w;
    }
  }

  /** Runs `combos` (rows numbered by combination) on one thread; answers in combination order. */
  run(job: SweepJob, combos: readonly QueueCombo[], onRow: (done: number) => void): ChunkRun {
    const w = this.take();
    const claims = claimTable(combos.length);
    const replies: Array<SweepReply | undefined> = combos.map(() => undefined);
    let count = 0;
    const done = new Promise<SweepReply[]>((resolve, reject) => {
      let error: string | undefined;
      const finish = (e?: ChunkError): void => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (e) reject(e);
        else resolve(replies.filter((r): r is SweepReply => r !== undefined));
      };
      const onMessage = (m: SweepWorkerMessage): void => {
        if (m.kind === 'row') {
          // The thread numbers rows within the chunk; the sweep numbers them within the grid.
          replies[m.reply.index] = { ...m.reply, index: combos[m.reply.index]!.index };
          onRow(++count);
        } else if (m.kind === 'end') {
          if (!this.closed && this.free.length < this.size) this.free.push(w);
          else void w.terminate();
          finish();
        }
      };
      const onError = (e: Error): void => {
        error = describeError(e);
      };
      const onExit = (code: number): void => {
        finish(error !== undefined ? new ChunkError(error, false) : new ChunkError(`the worker thread exited with code ${code} mid-job`, true));
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
    });
    const command: SweepWorkerCommand = { kind: 'job', data: { job, grid: combos.map((c) => c.params), claims, lane: 1 } };
    w.postMessage(command);
    return { stop: () => closeClaims(claims), done };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.free.splice(0).map((w) => w.terminate()));
  }
}
