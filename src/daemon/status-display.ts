/**
 * What a person watching `tarang paper` / `tarang run` sees: one compact status line, refreshed in
 * place on a terminal (a new line every `plainEveryMs` when the output is a file or pipe), and above
 * it one line per notable event (fill, rejection, denial, alert, trading-state change), capped per
 * second so a burst never floods the screen. Ticks are only counted, never printed.
 */
import type { Event } from '../core/events.js';
import type { Clock } from '../core/clock.js';
import { formatInr, type Paise } from '../core/money.js';
import { formatIst } from '../core/time.js';
import type { SessionStats, StatsSnapshot } from './session-stats.js';

export interface StatusDisplayOptions {
  readonly stats: SessionStats;
  readonly clock: Clock;
  /** `paper x60`, `live`. */
  readonly label: string;
  readonly out?: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Refresh period, real ms. */
  readonly intervalMs: number;
  /** Non-terminal output: print the status this often (real ms). Default 10 s. */
  readonly plainEveryMs?: number;
  /** Event lines allowed per second before they are summarised. Default 8. */
  readonly maxEventLinesPerSecond?: number;
  /** Extra status fields (connections, trading state) appended to the line. */
  readonly extra?: () => string;
  /** Display names of instruments (`NSE_2885` -> `RELIANCE`). */
  readonly nameOf?: (instrument: string) => string;
}

const int = new Intl.NumberFormat('en-IN');

/**
 * The session's P&L and its charges, saying where the charges come from: a broker's trade book
 * gives fills without charges, and "after ₹0.00 charges" would then be a false figure. Fills
 * that carry charges are netted; otherwise the account's charges for the day (its funds, which
 * also hold what was traded outside tarang today) are shown beside the P&L before them.
 */
export function pnlLine(s: StatsSnapshot, accountCharges?: Paise): string {
  if (s.fills === 0) return `P&L ${formatInr(s.pnl)}`;
  if (s.chargedFills === s.fills) return `P&L ${formatInr(s.pnl)} (after ${formatInr(s.charges)} charges)`;
  const before = s.pnl + s.charges;
  if (accountCharges === undefined) return `P&L ${formatInr(before)} before charges (the broker gave no charges with its fills; \`tarang account\` shows the day's charges)`;
  return `P&L ${formatInr(before)} before charges, ${formatInr(before - accountCharges)} after the ${formatInr(accountCharges)} of brokerage and charges the account booked today`;
}

export class StatusDisplay {
  private readonly out: NodeJS.WritableStream;
  private readonly tty: boolean;
  private timer: NodeJS.Timeout | undefined;
  private lastRender = { wall: 0, ticks: 0 };
  private lastPlain = 0;
  private tickRate = 0;
  private lineBudget: number;
  private suppressed = 0;
  private budgetWindow = 0;
  private statusShown = false;

  constructor(private readonly o: StatusDisplayOptions) {
    this.out = o.out ?? process.stdout;
    this.tty = (this.out as NodeJS.WriteStream).isTTY === true;
    this.lineBudget = o.maxEventLinesPerSecond ?? 8;
  }

  start(): void {
    if (this.o.intervalMs <= 0) return;
    this.lastRender = { wall: performance.now(), ticks: this.o.stats.snapshot().ticks };
    this.timer = setInterval(() => this.render(), this.o.intervalMs);
    this.timer.unref();
  }

  /** Prints the notable events; call for every bus event (ticks return at once). */
  observe(e: Event): void {
    if (e.type === 'tick' || e.type === 'candle' || e.type === 'intent' || e.type === 'position') return;
    const line = this.describe(e);
    if (line === undefined) return;
    const now = performance.now();
    if (now - this.budgetWindow >= 1000) {
      this.budgetWindow = now;
      this.lineBudget = this.o.maxEventLinesPerSecond ?? 8;
      if (this.suppressed > 0) {
        this.print(`  ... ${this.suppressed} more event lines not shown`);
        this.suppressed = 0;
      }
    }
    if (this.lineBudget-- > 0) this.print(line);
    else this.suppressed++;
  }

  /**
   * Final summary; stops refreshing. `accountCharges`: brokerage and charges the broker's funds
   * show for the day, read at stop when the fills came without theirs.
   */
  stop(accountCharges?: Paise): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.o.intervalMs <= 0) return;
    this.clearStatus();
    const s = this.o.stats.snapshot();
    const pos = s.positions.map((p) => `${this.name(p.instrument)} ${p.netQty > 0 ? '+' : ''}${p.netQty}`).join(', ') || 'none';
    this.out.write(
      `\nsession summary: ${int.format(s.ticks)} ticks, ${s.orders} orders (${s.rejected} rejected), ${s.fills} fills, ${s.denials} denied, ${s.alerts} alerts\n` +
        `  open positions: ${pos}\n  ${pnlLine(s, accountCharges)}\n`,
    );
  }

  /** The status line for a snapshot (exposed for tests). */
  statusLine(s: StatsSnapshot, tickRate: number): string {
    const t = formatIst(this.o.clock.now()).slice(0, 19).replace('T', ' ');
    const parts = [
      `[${this.o.label}] ${t} IST`,
      `ticks ${int.format(s.ticks)} (${int.format(Math.round(tickRate))}/s)`,
      `orders ${s.orders} open ${s.openOrders}`,
      `fills ${s.fills}`,
      `denied ${s.denials}`,
      `pos ${s.positions.length}`,
      `P&L ${formatInr(s.pnl)}`,
    ];
    const extra = this.o.extra?.();
    if (extra) parts.push(extra);
    return parts.join(' | ');
  }

  private render(): void {
    const s = this.o.stats.snapshot();
    const now = performance.now();
    const dt = (now - this.lastRender.wall) / 1000;
    if (dt > 0) this.tickRate = (s.ticks - this.lastRender.ticks) / dt;
    this.lastRender = { wall: now, ticks: s.ticks };
    const line = this.statusLine(s, this.tickRate);
    if (this.tty) {
      const cols = (this.out as NodeJS.WriteStream).columns ?? 160;
      this.out.write(`\r\x1b[K${line.length > cols - 1 ? `${line.slice(0, cols - 2)}…` : line}`);
      this.statusShown = true;
    } else if (now - this.lastPlain >= (this.o.plainEveryMs ?? 10_000)) {
      this.lastPlain = now;
      this.out.write(`${line}\n`);
    }
  }

  private print(line: string): void {
    this.clearStatus();
    this.out.write(`${line}\n`);
  }

  private clearStatus(): void {
    if (this.tty && this.statusShown) {
      this.out.write('\r\x1b[K');
      this.statusShown = false;
    }
  }

  private name(instrument: string): string {
    return this.o.nameOf?.(instrument) ?? instrument;
  }

  private describe(e: Event): string | undefined {
    const t = formatIst(e.ts).slice(11, 19);
    switch (e.type) {
      case 'fill':
        return `${t}  FILL    ${e.strategyId.padEnd(14)} ${e.side.padEnd(4)} ${String(e.qty).padStart(5)} ${this.name(e.instrument)} @ ${formatInr(e.price)}`;
      case 'order':
        if (e.order.status === 'REJECTED') return `${t}  REJECT  ${e.order.strategyId.padEnd(14)} ${e.order.side} ${e.order.qty} ${this.name(e.order.instrument)}: ${e.order.reason ?? 'no reason given'}`;
        return undefined;
      case 'denied':
        return `${t}  DENIED  ${e.intent.strategyId.padEnd(14)} ${e.code}: ${e.reason}`;
      case 'alert':
        return `${t}  ALERT   ${e.level.toUpperCase()} ${e.code}: ${e.message}`;
      case 'trading-state':
        return `${t}  TRADING STATE  ${e.from} -> ${e.to} (${e.reason})`;
      case 'lifecycle':
        if (e.phase === 'order_replaced' || e.phase === 'trailing_stop' || e.phase === 'strategy_paused' || e.phase === 'reconciled' || e.phase === 'disconnected' || e.phase === 'connected') {
          return `${t}  ${e.phase.toUpperCase().replaceAll('_', ' ')}  ${e.source}${e.detail ? `: ${e.detail}` : ''}`;
        }
        return undefined;
      default:
        return undefined;
    }
  }
}
