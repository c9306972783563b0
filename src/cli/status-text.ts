/**
 * `tarang ctl status` for a person: the daemon's status answer (src/daemon/daemon.ts `status()`,
 * money in paise, instruments by scrip code) as rupees with Indian grouping and symbols beside
 * scrip codes, positions and strategies as tables. `--json` keeps the raw answer for programs.
 */
import { formatInr } from '../core/money.js';

type Rec = Readonly<Record<string, unknown>>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const inr = (v: unknown): string => (num(v) === undefined ? '' : formatInr(num(v)!));
const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function lines(pairs: ReadonlyArray<[string, string]>): string {
  const shown = pairs.filter(([, v]) => v !== '');
  const w = Math.max(...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n') + '\n';
}

function grid(rows: ReadonlyArray<Readonly<Record<string, string>>>): string {
  if (rows.length === 0) return '  (none)\n';
  const cols = Object.keys(rows[0]!);
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c]!.length)));
  // \u20B9: ₹ (kept ASCII for the CLI bundle, bin/cli-bundle.js).
  const right = cols.map((c) => rows.every((r) => /^-?\u20B9?[\d,.]*$/.test(r[c]!)));
  const fmt = (cells: readonly string[]) => `  ${cells.map((t, i) => (right[i] ? t.padStart(w[i]!) : t.padEnd(w[i]!))).join('  ').trimEnd()}`;
  return [fmt(cols), ...rows.map((r) => fmt(cols.map((c) => r[c]!)))].join('\n') + '\n';
}

/** The status answer as text. */
export function statusText(a: Rec): string {
  const engine = isRec(a['engine']) ? a['engine'] : undefined;
  let out = 'daemon status\n';
  out += lines([
    ['mode', str(a['mode'])],
    ['daemon', str(a['daemon'])],
    ['health', str(a['health'])],
    ['trading', str(a['tradingState'])],
    ['reconciled', str(a['reconciled'])],
    ['clock (IST)', str(a['clock'])],
    ['ticks', str(a['ticks'])],
    ['orders', str(a['orders'])],
    ['open orders', str(a['openOrders'])],
    ['fills', str(a['fills'])],
    ['denied', str(a['denials'])],
    ['P&L', inr(a['pnlPaise'])],
    ...(engine
      ? ([
          ['realized P&L', inr(engine['realizedPnl'])],
          ['unrealized P&L', inr(engine['unrealizedPnl'])],
          ["today's P&L", inr(engine['dailyPnl'])],
          ['available funds', inr(engine['availableFunds'])],
          ['kill switch', str(engine['killSwitch'])],
          ['venue', str(engine['venue'])],
        ] as Array<[string, string]>)
      : []),
    ['connections', str(a['connections'])],
  ]);
  const positions = Array.isArray(a['positions']) ? (a['positions'] as unknown[]).filter(isRec) : [];
  out += `positions\n${grid(positions.map((p) => ({ symbol: str(p['symbol']), scrip: str(p['instrument']), 'net qty': str(p['netQty']), 'P&L': inr(p['pnl']) })))}`;
  const strategies = engine && Array.isArray(engine['strategies']) ? (engine['strategies'] as unknown[]).filter(isRec) : [];
  if (strategies.length) out += `strategies\n${grid(strategies.map((s) => ({ id: str(s['id']), state: s['paused'] ? `paused${s['reason'] ? `: ${str(s['reason'])}` : ''}` : 'running', 'P&L': inr(s['pnl']) })))}`;
  return out;
}
