/**
 * Durable state: the daemon on a real Redis store keeps trading through a Redis restart (connection
 * killed, data gone) and re-persists; and after `kill -9` of a daemon process with orders in
 * flight, a restarted daemon finds every order by its tag, places nothing twice and ends with the
 * broker's state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/adapters/redis/store.js';
import { readRecording } from '../../src/daemon/recorder.js';
import type { OrderSnapshot } from '../../src/core/events.js';
import { createLogger } from '../../src/core/log.js';
import { TEST_REDIS_URL, redisAvailable } from '../support/redis.js';
import { watchServerRequests, type ServerRequest } from '../support/server-requests.js';
import { WAIT_MS } from '../support/wait.js';
import { BUY_N, compareWithBroker, seenOrders, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

const available = await redisAvailable();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe.skipIf(!available)('daemon state across Redis and process failures (real Redis)', () => {
  let h: PaperHarness;
  let admin: Redis;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    h = await startPaperHarness({ speed: 10 });
    admin = new Redis(TEST_REDIS_URL);
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    await h.close();
    admin.disconnect();
  });

  it('keeps trading through a Redis restart and re-persists what the server lost', async () => {
    const prefix = `test:daemon:${randomUUID()}:`;
    const store = new RedisStore({ url: TEST_REDIS_URL, prefix, retry: { baseMs: 10, maxMs: 100 } });
    const said: string[] = [];
    const log = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of String(chunk).split('\n')) if (line) said.push((JSON.parse(line) as { msg: string }).msg);
          done();
        },
      }),
    });
    try {
      const d = await h.daemon({ n: 8, store, log });
      await until(() => seenOrders(d).filled >= 2, 'two fills before the restart');
      // A restart of an unpersisted server: our connection dies and every key is gone.
      await admin.client('KILL', 'ID', String(await store.clientId()));
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(...keys);
      await until(() => store.reconnectCount >= 1 && store.connectionState === 'ready', 'the store to reconnect');
      // Health followed the store down and back up (its lifecycle events, source `store`).
      await until(() => d.health.report().connections['store']?.connected === true, 'health to see the store back');
      await until(() => seenOrders(d).count >= 8 && seenOrders(d).open === 0, 'all orders done after the restart');
      // The daemon says when it has written back what the server lost; orders after that were journaled as placed.
      await until(() => said.includes('daemon: state re-persisted after a store reconnect'), 'the daemon to re-persist its state');
      await until(async () => (await store.entries('tags')).length >= 8, 'tags re-persisted');
      const tags = new Set((await store.entries('tags')).map(([k]) => k));
      for (const tag of d.stats.orders().keys()) expect(tags.has(tag)).toBe(true);
      const run = await store.get<number>('engine', 'run');
      expect(run).toBeGreaterThanOrEqual(1);
      const r = compareWithBroker(d, await h.brokerView(), h.instrument);
      expect(r.problems).toEqual([]);
      expect(r.tags).toHaveLength(8);
      expect(await d.metrics.text()).toMatch(/^tarang_reconnects_total\{connection="store"\} 1$/m);
    } finally {
      await store.clear();
      await store.close();
    }
  });

  it('after kill -9 with orders in flight, a restart places nothing twice and ends with the broker state', async () => {
    const prefix = `test:daemon:${randomUUID()}:`;
    const dir = mkdtempSync(join(tmpdir(), 'tarang-kill-'));
    const cr = h.sim.credentials;
    const config = `
broker:
  baseUrl: ${h.sim.baseUrl}
  wsUrl: ${h.sim.wsUrl}
  accessToken: ${cr.access_token}
  timeouts: { connectMs: 2000, requestMs: 3000, writeMs: 1500 }
paper:
  simulator: ${h.sim.baseUrl}
  wsUrl: ${h.sim.wsUrl}
  speed: 10
strategies:
  - id: buyer
    strategy: ${BUY_N}
    params: { instrument: ${h.instrument}, n: 6, concurrent: 3 }
store: ${TEST_REDIS_URL}
storePrefix: "${prefix}"
stateDir: ${dir}
ops: { port: 0, token: test-token-0123456789abcdef }
recording: { enabled: true, dir: ${join(dir, 'rec')} }
shutdown: { onStop: none, atSessionEnd: none }
statusIntervalMs: 0
checkpointSeconds: 0.2
log: { level: info }
`;
    const file = join(dir, 'paper.yaml');
    writeFileSync(file, config);
    const start = (): { child: ChildProcess; port: Promise<number> } => {
      const child = spawn(process.execPath, [join(root, 'bin', 'tarang.js'), 'paper', '--config', file, '--no-status'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      const port = new Promise<number>((resolve, reject) => {
        let err = '';
        child.stderr!.on('data', (c: Buffer) => {
          err += String(c);
          const m = /"port":(\d+),"msg":"ops endpoint listening/.exec(err);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`daemon exited (${code}) before listening:\n${err.slice(-2000)}`)));
      });
      return { child, port };
    };

    // Writes take 400 ms to be answered: kill the daemon the moment the broker receives an order
    // write after an earlier one was answered, so one order is placed and known and one is on the wire.
    const isPlace = (r: ServerRequest): boolean => r.method === 'POST' && r.path === '/order';
    const writes = watchServerRequests();
    try {
      await h.faults({ latency_ms: 400 });
      const first = start();
      await first.port;
      const onTheWire = await writes.next((r, before) => isPlace(r) && before.some((b) => isPlace(b) && b.done), 'an order write on the wire after one was answered', WAIT_MS);
      first.child.kill('SIGKILL');
      expect(onTheWire.done).toBe(false);
      await new Promise((r) => first.child.once('exit', r));
    } finally {
      writes.close();
    }
    await h.clearFaults();

    const second = start();
    const port = await second.port;
    const health = async (): Promise<{ reconciled: boolean }> => (await (await request(`http://127.0.0.1:${port}/health`)).body.json()) as { reconciled: boolean };
    await until(async () => (await health()).reconciled, 'the restarted daemon to reconcile');
    // Let the strategy finish its six orders and every order reach a final state at the broker.
    await until(
      async () => {
        const v = await h.brokerView();
        const ours = v.orders.filter((o) => o.tag?.startsWith('tr'));
        return ours.length >= 6 && ours.every((o) => o.status === 'FILLED' || o.status === 'REJECTED' || o.status === 'CANCELLED');
      },
      'six orders done at the broker',
    );
    // The restarted daemon has seen each of them finish (its recording says so) before it is stopped.
    await until(async () => {
      const final = (await h.brokerView()).orders.filter((o) => o.tag?.startsWith('tr'));
      // A batch the recorder is appending right now is read on the next poll.
      const recorded = await lastRecorded(join(dir, 'rec')).catch(() => new Map<string, OrderSnapshot>());
      return final.every((b) => recorded.get(b.tag!)?.status === b.status && recorded.get(b.tag!)?.filledQty === (b.filledQty ?? 0));
    }, 'the restarted daemon to record the final state of every order');
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));

    const view = await h.brokerView();
    const ours = view.orders.filter((o) => o.tag?.startsWith('tr'));
    const tags = ours.map((o) => o.tag!);
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.length).toBeGreaterThanOrEqual(6);
    // The daemon's last word on each order (from its recording) equals the broker's.
    const last = await lastRecorded(join(dir, 'rec'));
    for (const b of ours) {
      const mine = last.get(b.tag!);
      expect(mine, `daemon never saw ${b.tag}`).toBeDefined();
      expect({ tag: b.tag, status: mine!.status, filled: mine!.filledQty }).toEqual({ tag: b.tag, status: b.status, filled: b.filledQty ?? 0 });
    }
    // The journal is written before each write goes out: a journaled tag missing at the broker is an
    // intent whose write never left the killed process (at most the 3 that could be in flight), and
    // it must never be placed later (the restart does not replay it).
    const store = new RedisStore({ url: TEST_REDIS_URL, prefix });
    try {
      const journal = (await store.entries('tags')).map(([k]) => k);
      const neverSent = journal.filter((t) => !tags.includes(t));
      expect(neverSent.length).toBeLessThanOrEqual(3);
      for (const t of tags) expect(journal).toContain(t);
    } finally {
      await store.clear();
      await store.close();
    }
  });
});

/** Each order's last state in a daemon's recording, by tag. */
async function lastRecorded(dir: string): Promise<Map<string, OrderSnapshot>> {
  const last = new Map<string, OrderSnapshot>();
  for await (const e of readRecording(dir)) if (e.type === 'order') last.set(e.order.tag, e.order);
  return last;
}
