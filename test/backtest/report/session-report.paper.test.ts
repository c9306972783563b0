/**
 * `tarang report` on a paper session recorded on the simulator (two strategies over loopback
 * HTTP/WebSocket, risk allowing two working orders so part of their intents is denied): the
 * terminal summary in rupees, the JSON holding exactly the recording's fills and orders, the HTML
 * drawing in headless Chromium with one marker per recorded fill, alerts shown resolved or not,
 * and a torn or old recording refused naming the file and line.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillEvent, OrderEvent } from '../../../src/core/events.js';
import { formatIst } from '../../../src/core/time.js';
import { readSession } from '../../../backtest/report/session.js';
import { chromiumAvailable, launchChromium, openOffline, inkExpr } from '../../support/chromium.js';
import { tarang } from '../../support/tarang-bin.js';
import { BUY_N, seenOrders, startPaperHarness, until, type PaperHarness } from '../../daemon/support/paper-harness.js';

const LONG_FLIP = BUY_N.replace(/buy-n\.ts$/, 'long-flip.ts');
let h: PaperHarness;
let file: string;
let events: Array<{ type: string } & Record<string, unknown>>;

beforeAll(async () => {
  h = await startPaperHarness({ speed: 10 });
  const dir = mkdtempSync(join(tmpdir(), 'tarang-report-'));
  const d = await h.daemon({
    n: 5,
    config: {
      strategies: [
        { id: 'buyer', strategy: BUY_N, params: { instrument: 'NSE_2885', n: 5, burst: 3, concurrent: 3 } },
        { id: 'flipper', strategy: LONG_FLIP, params: { instrument: 'NSE_1333', qty: 2, entries: 4 } },
      ],
      risk: { maxOpenOrders: 2 },
      recording: { enabled: true, dir, ticks: true },
    },
  });
  await until(() => seenOrders(d).count >= 5 && seenOrders(d).open === 0, 'orders placed and done');
  await h.elapse(90_000);
  await until(() => seenOrders(d).open === 0, 'no order working');
  await d.stop('test done', 'none');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  file = join(dir, files[0]!);
  events = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);
}, 120_000);

afterAll(async () => {
  await h?.close();
});


describe('tarang report on a paper session', () => {
  it('prints the summary in rupees and writes JSON whose fills, orders and denials are the recording’s', async () => {
    const json = file.replace(/\.jsonl$/, '.json');
    const r = await tarang(['report', file, '--json', json]);
    expect(r.stderr).not.toMatch(/tarang:/);
    expect(r.code).toBe(0);
    const fills = events.filter((e) => e.type === 'fill') as unknown as FillEvent[];
    const denied = events.filter((e) => e.type === 'denied');
    expect(fills.length).toBeGreaterThanOrEqual(5);
    expect(denied.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^session .*: paper on paper, 2026-11-20 \d\d:\d\d:\d\d to \d\d:\d\d:\d\d IST; strategies buyer, flipper$/m);
    // The buyer only buys: its fills stay open, one share each; the flipper's make round trips.
    const bought = fills.filter((f) => f.instrument === 'NSE_2885').length;
    expect(r.stdout).toMatch(new RegExp(`^NSE_2885 +${bought} +0 +0 +₹0\\.00 +\\(open ${bought}\\)$`, 'm'));
    expect(r.stdout).toMatch(/^NSE_1333 +\d+ +[1-9] +\d +-?₹[\d,]+\.\d\d$/m);
    expect(r.stdout).toMatch(/^final equity ₹\d{1,2},\d\d,\d{3}\.\d\d \(start ₹10,00,000\.00\)/m);
    expect(r.stdout).toMatch(new RegExp(`^orders \\d+: FILLED \\d+`, 'm'));
    // Each code and reason on one row with its count (under load the session may see other denials too).
    const byReason = new Map<string, number>();
    for (const d of denied) byReason.set(`${String(d['code'])} ${String(d['reason'])}`, (byReason.get(`${String(d['code'])} ${String(d['reason'])}`) ?? 0) + 1);
    expect([...byReason.keys()]).toContain('MAX_OPEN_ORDERS 2 orders are working; the maximum is 2');
    const escape = (x: string): string => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [k, n] of [...byReason].slice(0, 10)) expect(r.stdout).toMatch(new RegExp(`^${escape(k.split(' ')[0]!)} +${escape(k.slice(k.indexOf(' ') + 1))} +${n}$`, 'm'));

    const doc = JSON.parse(readFileSync(json, 'utf8')) as {
      report: string;
      fills: Array<{ time: string; instrument: string; side: string; qty: number; price: number; tag: string; order_id: string }>;
      orders: Array<{ tag: string; status: string; filled_qty: number; order_id: string | null }>;
      session_denials: Array<{ code: string; reason: string; count: number }>;
      pnl_through_day: Array<{ pnl: number }>;
      final_equity: number;
      starting_cash: number;
    };
    expect(doc.report).toBe('tarang report');
    expect(doc.fills).toEqual(fills.map((f) => ({ time: formatIst(f.ts), instrument: f.instrument, side: f.side, qty: f.qty, price: f.price / 100, charges: expect.any(Number) as number, tag: f.tag, order_id: f.orderId })));
    const last = new Map<string, OrderEvent['order']>();
    for (const e of events) if (e.type === 'order') last.set((e as unknown as OrderEvent).order.tag, (e as unknown as OrderEvent).order);
    expect(doc.orders.map((o) => [o.tag, o.status, o.filled_qty, o.order_id]).sort()).toEqual([...last.values()].map((o) => [o.tag, o.status, o.filledQty, o.orderId ?? null]).sort());
    expect(Object.fromEntries(doc.session_denials.map((d) => [`${d.code} ${d.reason}`, d.count]))).toEqual(Object.fromEntries(byReason));
    // The day's P&L ends where the equity does.
    expect(doc.pnl_through_day[doc.pnl_through_day.length - 1]!.pnl).toBeCloseTo(doc.final_equity - doc.starting_cash, 2);
  });

  it.skipIf(!chromiumAvailable())('writes an HTML report that draws offline in Chromium with one marker per recorded fill', async () => {
    const html = file.replace(/\.jsonl$/, '.html');
    const r = await tarang(['report', file, '--html', html]);
    expect(r.code).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain('<h2>Orders (');
    expect(text).toContain('<h2>Denials (');
    expect(text).toContain('<h2>P&amp;L through the day</h2>');
    expect(text).toMatch(/₹10,00,000\.00/);
    const browser = await launchChromium();
    try {
      const page = await openOffline(browser, html);
      await page.page.waitForFunction('window.tarangReport && window.tarangReport.ready', undefined, { timeout: 20_000 });
      await page.page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const state = (await page.page.evaluate('window.tarangReport')) as { instrument: string; markers: number; fills: number; errors: string[] };
      expect(page.errors).toEqual([]);
      expect(page.requests).toEqual([]);
      expect(state.errors).toEqual([]);
      const recorded = events.filter((e) => e.type === 'fill' && e['instrument'] === state.instrument).length;
      expect(recorded).toBeGreaterThan(0);
      expect(state.fills).toBe(recorded);
      expect(state.markers).toBe(recorded);
      expect(Number(await page.page.evaluate(inkExpr('#price-chart')))).toBeGreaterThan(500);
      expect(Number(await page.page.evaluate(inkExpr('#equity-chart')))).toBeGreaterThan(500);
    } finally {
      await browser.close();
    }
  });

  it('shows each alert with its level and whether its all-clear came', async () => {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
    const t = (events.find((e) => e.type === 'tick')!['ts'] as number) + 1_000;
    const alert = (ts: number, level: string, code: string, context?: Record<string, unknown>): string => JSON.stringify({ type: 'alert', ts, level, code, message: `${code} in the test`, ...(context ? { context } : {}) });
    lines.splice(
      3,
      0,
      alert(t, 'warn', 'DISCONNECTED', { source: 'ws:orders' }),
      alert(t + 1, 'warn', 'DISCONNECTED', { source: 'ws:prices' }),
      alert(t + 40_000, 'info', 'RECONNECTED', { source: 'ws:orders' }),
      alert(t + 50_000, 'warn', 'ORDER_ADOPTED'),
    );
    const withAlerts = file.replace(/\.jsonl$/, '-alerts.jsonl');
    writeFileSync(withAlerts, `${lines.join('\n')}\n`);
    const s = await readSession(withAlerts);
    // Only the alerts added here (a loaded machine may give the session real ones too).
    expect(s.alerts.filter((a) => a.message.endsWith('in the test')).map((a) => [a.code, a.level, a.resolvedAt])).toEqual([
      ['DISCONNECTED', 'warn', t + 40_000],
      ['DISCONNECTED', 'warn', null],
      ['RECONNECTED', 'info', undefined],
      ['ORDER_ADOPTED', 'warn', undefined],
    ]);
    const r = await tarang(['report', withAlerts]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d +warn +DISCONNECTED +\d\d:\d\d:\d\d$/m);
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d +warn +DISCONNECTED +NO$/m);
  });

  it('starts a live session from the funds the venue showed at start, and says that margin in use then is not in it', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { mode: string; config: Record<string, unknown>; funds: { available: number } };
    const { paper: _paper, ...config } = header.config;
    lines[0] = JSON.stringify({ ...header, mode: 'live', venue: 'broker', config });
    const live = file.replace(/\.jsonl$/, '-live.jsonl');
    writeFileSync(live, lines.join('\n'));
    const s = await readSession(live);
    expect(s.report.metrics.startingCash).toBe(header.funds.available);
    expect(s.notes.some((n) => n.startsWith('the cash at start is the funds available when the engine had reconciled (₹'))).toBe(true);
    // The paper session itself starts from the simulator's capital, whatever margin the first orders held.
    expect((await readSession(file)).report.metrics.startingCash).toBe(100_000_000);
  });

  it('refuses a torn recording naming the file and line, and reads it up to there with --allow-truncated', async () => {
    const text = readFileSync(file, 'utf8').trimEnd();
    const torn = file.replace(/\.jsonl$/, '-torn.jsonl');
    writeFileSync(torn, text.slice(0, text.length - 20));
    const n = text.split('\n').length;
    const r = await tarang(['report', torn]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${torn}:${n}: truncated: the last line ends mid-event`);
    const ok = await tarang(['report', torn, '--allow-truncated']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`note: line ${n} is torn`);
    const old = file.replace(/\.jsonl$/, '-old.jsonl');
    writeFileSync(old, text.split('\n').slice(1).join('\n'));
    const o = await tarang(['report', old]);
    expect(o.code).not.toBe(0);
    expect(o.stderr).toMatch(/-old\.jsonl:1: an old recording \(no version line/);
  });
});
