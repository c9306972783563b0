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
import { tarang } from '../../support/tarang-bin.js';
import { chromiumAvailable, launchChromium, openOffline } from '../../support/chromium.js';
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
    // The faults were real: the order stream dropped and reconnected during the session.
    expect(r.live.gaps.some((g) => g.source.startsWith('venue:') && g.to !== undefined)).toBe(true);
    expect(r.notes).toEqual([]);
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

describe('tarang replay classifies what the broker and the stream did', () => {
  it('shows an order the broker rejected as broker-rejected, and a fill that arrived late as a late update', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const parse = (l: string): Record<string, unknown> => JSON.parse(l) as Record<string, unknown>;
    // The flipper's first order: rejected by the broker instead, its fill gone.
    const fk = lines.findIndex((l) => l.includes('"type":"fill"') && l.includes('"strategyId":"flipper"'));
    const rejectedTag = parse(lines[fk]!)['tag'] as string;
    const edited = lines
      .filter((l, k) => k !== fk)
      .map((l) => {
        if (!l.includes('"type":"order"') || !l.includes(`"tag":"${rejectedTag}"`)) return l;
        const e = parse(l) as { order: Record<string, unknown> };
        return JSON.stringify({ ...e, order: { ...e.order, status: 'REJECTED', filledQty: 0, filledValue: 0, reason: 'RMS: margin exceeds' } });
      });
    // The buyer's second fill: booked ten seconds after it happened (its stream was down).
    const bk = edited.map((l, k) => [l, k] as const).filter(([l]) => l.includes('"type":"fill"') && l.includes('"strategyId":"buyer"'))[1]![1];
    const late = parse(edited[bk]!) as { ts: number; tag: string };
    edited[bk] = JSON.stringify({ ...late, ts: late.ts - 10_000 });
    const changed = file.replace(/\.jsonl$/, '-broker.jsonl');
    writeFileSync(changed, edited.join('\n'));
    const r = await replaySession({ source: changed });
    const byTag = new Map(r.diff.divergences.map((d) => [d.tag, d]));
    expect(byTag.get(rejectedTag)).toMatchObject({ kind: 'broker', strategyId: 'flipper', live: 'rejected: RMS: margin exceeds' });
    expect(byTag.get(late.tag)).toMatchObject({ kind: 'update', strategyId: 'buyer' });
    expect(byTag.get(late.tag)!.why).toMatch(/^the live fill reached the engine (9|1\d)\.\d s after it happened/);
  });
});

describe('tarang replay and backtest --from-recording on the command line', () => {
  it('prints the summary, writes JSON and an HTML report that draws in a real browser, and exits 0 when nothing diverged', async () => {
    const json = file.replace(/\.jsonl$/, '.json');
    const html = file.replace(/\.jsonl$/, '.html');
    const r = await tarang(['replay', file, '--json', json, '--html', html, '--check']);
    expect(r.stderr).not.toMatch(/tarang:/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/decisions identical (\d+)\/\1, fills identical (\d+)\/\2/);
    expect(r.stdout).toMatch(/^buyer +4 +4 +4 +4 +4 +4 +-?₹[\d,.]+ +-?₹[\d,.]+$/m);
    expect(r.stdout).toContain('no divergence');
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { decisions: { identical: number; total: number }; divergences: unknown[]; by_strategy: unknown[] };
    expect(doc.decisions.identical).toBe(doc.decisions.total);
    expect(doc.divergences).toEqual([]);
    expect(doc.by_strategy).toHaveLength(2);
    if (!chromiumAvailable()) return;
    const browser = await launchChromium();
    try {
      const page = await openOffline(browser, html);
      await page.page.waitForFunction('window.tarangReport && window.tarangReport.ready', undefined, { timeout: 20_000 });
      const state = (await page.page.evaluate('window.tarangReport')) as { instrument: string; markers: number; errors: string[] };
      expect(page.errors).toEqual([]);
      expect(page.requests).toEqual([]);
      expect(state.errors).toEqual([]);
      // The first instrument's live and replay fills, one marker each.
      const fills = doc.by_strategy.length > 0 ? 2 * readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"fill"') && l.includes(`"instrument":"${state.instrument}"`)).length : 0;
      expect(state.markers).toBe(fills);
    } finally {
      await browser.close();
    }
  });

  it('exits 1 with --check on a recording that diverges, and names an old recording by its line', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"fill"') && l.includes('"strategyId":"buyer"'));
    lines[k] = JSON.stringify({ ...(JSON.parse(lines[k]!) as object), qty: 2 });
    const changed = file.replace(/\.jsonl$/, '-qty.jsonl');
    writeFileSync(changed, lines.join('\n'));
    const r = await tarang(['replay', changed, '--check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/first divergence of 1:\n\S+ +different fill +buyer +tr\S+ \(order \S+\) +line \d+/);
    const old = file.replace(/\.jsonl$/, '-old.jsonl');
    writeFileSync(old, lines.slice(1).join('\n'));
    const o = await tarang(['replay', old]);
    expect(o.code).not.toBe(0);
    expect(o.stderr).toMatch(/-old\.jsonl:1: an old recording \(no version line/);
  });

  it('replays with another config: decisions the recorded session never made show as different decisions', async () => {
    const config = file.replace(/\.jsonl$/, '-more.yaml');
    writeFileSync(
      config,
      [
        'strategies:',
        `  - { id: buyer, strategy: ${BUY_N}, params: { instrument: NSE_2885, n: 4 } }`,
        `  - { id: flipper, strategy: ${LONG_FLIP}, params: { instrument: NSE_1333, qty: 1, entries: 4 } }`,
        'shutdown: { onStop: none }',
      ].join('\n'),
    );
    const r = await tarang(['replay', file, '--config', config, '--json', `${config}.json`]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(`${config}.json`, 'utf8')) as { settings_from: string; divergences: Array<{ kind: string; strategy: string; live: string; replay: string }> };
    expect(doc.settings_from).toBe(config);
    expect(doc.divergences.length).toBeGreaterThan(0);
    expect(doc.divergences.every((d) => d.strategy === 'flipper')).toBe(true);
    expect(doc.divergences[0]).toMatchObject({ kind: 'decision', live: 'no decision' });
  });

  it('backtests another strategy over the recorded ticks with --from-recording', async () => {
    const json = file.replace(/\.jsonl$/, '-bt.json');
    const r = await tarang(['backtest', '--from-recording', file, '--strategy', BUY_N, '--param', 'instrument=NSE_1333', '--param', 'n=3', '--json', json]);
    expect(r.stderr).not.toMatch(/tarang:/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/ticks of 2 instrument\(s\) from a paper session/);
    expect(r.stdout).toMatch(/fills 3, trades 0/);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { fills: Array<{ instrument: string; side: string }>; source: { recording: string } };
    expect(doc.fills.map((f) => `${f.side} ${f.instrument}`)).toEqual(['BUY NSE_1333', 'BUY NSE_1333', 'BUY NSE_1333']);
    expect(doc.source.recording).toBe(file);
  });
});
