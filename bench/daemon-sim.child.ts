/**
 * The simulator side of `bench/daemon.bench.ts`, run in its own process so the bench's heap
 * figures are the daemon's alone: the simulator legitimately keeps the day's data it generates
 * (e.g. every modelled instrument's 1-minute bars), which is not the daemon's memory.
 *
 * Started by the bench with an IPC channel and `--expose-gc`. Sends one `ready` message with the
 * URLs and credentials (never on stdout, so no secret reaches a terminal or log), then answers
 * `heap` requests with its own heap after GC plus array buffers (MB: the simulator keeps today's
 * minute bars in typed arrays, whose storage is outside the V8 heap), `cpu` requests with its CPU
 * time and the tick frames written so far (its CPU per tick sent, which the daemon shares the
 * cores with), and exits on `stop`.
 * With TARANG_BENCH_SNAPSHOT (a directory) each `heap` request also writes `sim-N.heapsnapshot`.
 *
 * Argument: one JSON object `{ start, speed, tickMs, nseEquities, bseEquities }`.
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { z } from 'zod';
import { silentLogger } from '../src/core/log.js';
import { startSimulator } from '../src/adapters/simulator/index.js';

const Args = z.object({
  start: z.number().int(),
  speed: z.number().positive(),
  tickMs: z.number().int().positive(),
  nseEquities: z.number().int().positive(),
  bseEquities: z.number().int().nonnegative(),
});

export type SimChildArgs = z.output<typeof Args>;

export type SimChildMessage =
  | { readonly type: 'ready'; readonly baseUrl: string; readonly wsUrl: string; readonly credentials: Record<string, string> }
  | { readonly type: 'heap'; readonly mb: number }
  /** The simulator's CPU so far (user + system, s) and the tick frames it has written to sockets. */
  | { readonly type: 'cpu'; readonly seconds: number; readonly ticksSent: number };

let snapshots = 0;
let ticksSent = 0;

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const dir = process.env['TARANG_BENCH_SNAPSHOT'];
  if (dir) writeHeapSnapshot(join(dir, `sim-${++snapshots}.heapsnapshot`));
  const m = process.memoryUsage();
  const mb = (x: number): string => (x / 2 ** 20).toFixed(1);
  // The split, for telling the day's bars (typed arrays) from WebSocket frames queued for a slow reader (buffers).
  process.stderr.write(`bench simulator: heap ${mb(m.heapUsed)} MB + array buffers ${mb(m.arrayBuffers)} MB\n`);
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('bench/daemon-sim.child.ts: start me with an IPC channel (from bench/daemon.bench.ts)');
  const a = Args.parse(JSON.parse(process.argv[2] ?? '{}'));
  const sim = await startSimulator({
    start: a.start,
    speed: a.speed,
    logger: silentLogger(),
    rateLimits: false,
    venue: { nseEquities: a.nseEquities, bseEquities: a.bseEquities, tickIntervals: { cash: a.tickMs, futures: 3_600_000, options: 3_600_000 } },
    ws: {
      onFramesWritten: (instruments) => {
        for (let i = 0; i < instruments.length; i++) if (instruments[i] !== undefined) ticksSent++;
      },
    },
  });
  const send = (m: SimChildMessage): void => void process.send?.(m);
  process.on('message', (m: unknown) => {
    if (m === 'heap') send({ type: 'heap', mb: heapMb() });
    else if (m === 'cpu') {
      const c = process.cpuUsage();
      send({ type: 'cpu', seconds: (c.user + c.system) / 1e6, ticksSent });
    }
    else if (m === 'stop') void sim.close().finally(() => process.exit(0));
  });
  // The parent going away (crash, Ctrl-C) must not leave a simulator running.
  process.on('disconnect', () => void sim.close().finally(() => process.exit(0)));
  send({ type: 'ready', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, credentials: { ...sim.credentials } });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench simulator: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
