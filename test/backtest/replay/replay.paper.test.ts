/**
 * Replay of a recorded paper session: a daemon runs two strategies against the simulator over
 * loopback HTTP/WebSocket with faults injected (order updates sent terse and batched, the
 * WebSocket dropped between trades), its recording is replayed through the backtest engine, and
 * every decision comes out the same. Then one fill is changed in the recording: the diff shows
 * exactly that one divergence, classified as a different fill, with its time and order.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../../../backtest/replay/replay.js';
import { BUY_N, seenOrders, startPaperHarness, until, type PaperHarness } from '../../daemon/support/paper-harness.js';

const LONG_FLIP = BUY_N.replace(/buy-n\.ts$/, 'long-flip.ts');
let h: PaperHarness;
let file: string;

beforeAll(async () => {
  h = await startPaperHarness({ speed: 10 });
  const dir = mkdtempSync(join(tmpdir(), 'tarang-replay-'));
  const d = await h.daemon({
    n: 4,
    config: {
      strategies: [
        { id: 'buyer', strategy: BUY_N, params: { instrument: 'NSE_2885', n: 4 } },
        { id: 'flipper', strategy: LONG_FLIP, params: { instrument: 'NSE_1333', qty: 1, entries: 3 } },
      ],
      recording: { enabled: true, dir, ticks: true },
    },
  });
  await h.faults({ ws_terse_orders: true, ws_batch: true });
  await until(() => seenOrders(d).filled >= 4 && seenOrders(d).open === 0, 'first fills');
  await h.faults({ ws_drop: true });
  await until(() => seenOrders(d).count >= 10 && seenOrders(d).open === 0, 'both strategies done');
  await h.elapse(3_000);
  await d.stop('test done', 'none');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  file = join(dir, files[0]!);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('tarang replay of a paper session', () => {
  it('replays the recording and gets every decision and fill of both strategies identical', async () => {
    const r = await replaySession({ source: file });
    expect(r.diff.divergences).toEqual([]);
    expect(r.diff.decisions.total).toBeGreaterThanOrEqual(10);
    expect(r.diff.decisions.identical).toBe(r.diff.decisions.total);
    expect(r.diff.fills.identical).toBe(r.diff.fills.total);
    expect(r.diff.strategies.map((s) => s.strategyId)).toEqual(['buyer', 'flipper']);
    expect(r.diff.pnl.replay).toBe(r.diff.pnl.live);
  });

  it('shows a fill changed in the recording as that one divergence, classified, with its time and order', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"fill"') && l.includes('"strategyId":"flipper"'));
    const fill = JSON.parse(lines[k]!) as { price: number; ts: number; tag: string; orderId: string };
    lines[k] = JSON.stringify({ ...fill, price: fill.price + 500 });
    const changed = file.replace(/\.jsonl$/, '-changed.jsonl');
    writeFileSync(changed, lines.join('\n'));
    const r = await replaySession({ source: changed });
    expect(r.diff.decisions.identical).toBe(r.diff.decisions.total);
    expect(r.diff.divergences).toHaveLength(1);
    const d = r.diff.divergences[0]!;
    expect(d).toMatchObject({ kind: 'fill', strategyId: 'flipper', tag: fill.tag, orderId: fill.orderId, ts: fill.ts, line: k + 1 });
    expect(d.why).toMatch(/^price: live ₹[\d,.]+, replay ₹[\d,.]+, ₹5\.00 apart/);
    expect(r.diff.fills.identical).toBe(r.diff.fills.total - 1);
    // Live bought (or sold) 5 rupees a share worse: the whole P&L difference is that fill's price.
    expect(r.diff.pnl.replay - r.diff.pnl.live).toBe(r.diff.pnl.parts[0]!.amount);
  });
});
