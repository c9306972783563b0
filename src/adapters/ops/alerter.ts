/**
 * Operator alerts. Watches the bus and raises what an operator must hear about, each once per
 * incident and each with the code that resolves it (docs/operations.md has the table):
 * - every `alert` event some component published (kill switch, lockout, reconciliation findings);
 * - a connection (`lifecycle` disconnected/connected, by `source`) down for longer than
 *   `disconnectAlertMs` of clock time, and its recovery afterwards (the store: STORE_DISCONNECTED);
 * - a WebSocket stall (cause `stalled`): at once, and resolved only when frames flow again (cause
 *   `flowing`), so a stream that stalls, reconnects and stalls again is one incident, not silence;
 * - repeated reconnects of one source (`reconnects.count` within `reconnects.windowMs`), resolved
 *   once a whole window passes without one;
 * - token generation stopped while running (`tokenState`): lockout risk, resolved when it clears;
 * - the trading state turning `halted` (kill switch, manual halt), from the `trading-state` event,
 *   and its end (TRADING_RESUMED) when trading leaves `halted` after that alert.
 * Readers take typed fields (phase, cause, source), never `detail`, which only goes into messages.
 * Each alert goes to the log (warn/error by level) and to the optional webhook; alerts the alerter
 * derives itself are also published back to the bus (`publish`) so that the recording has them.
 */
import type { AlertEvent, AlertLevel, Event, LifecycleEvent, TradingStateEvent } from '../../core/events.js';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { WebhookNotifier } from './webhook.js';

export const AlertCode = {
  DISCONNECTED: 'DISCONNECTED',
  RECONNECTED: 'RECONNECTED',
  TRADING_HALTED: 'TRADING_HALTED',
  /** Resolves TRADING_HALTED: the trading state left `halted`. */
  TRADING_RESUMED: 'TRADING_RESUMED',
  KILL_SWITCH: 'KILL_SWITCH',
  /** Token generation stopped (rejected code, lock, wrong mpin): a refused token cannot be replaced. */
  TOTP_LOCKOUT: 'TOTP_LOCKOUT',
  /** Resolves TOTP_LOCKOUT: token generation is possible again. */
  TOTP_UNBLOCKED: 'TOTP_UNBLOCKED',
  RECONCILE_UNKNOWN_ORDER: 'RECONCILE_UNKNOWN_ORDER',
  RECONCILE_MISMATCH: 'RECONCILE_MISMATCH',
  STORE_DISCONNECTED: 'STORE_DISCONNECTED',
  /** Resolves STORE_DISCONNECTED. */
  STORE_RECONNECTED: 'STORE_RECONNECTED',
  /** A WebSocket stream went silent while frames were expected (market data open, orders: no pong). */
  WS_STALLED: 'WS_STALLED',
  /** Resolves WS_STALLED: the first frame after the stall. */
  WS_FLOWING: 'WS_FLOWING',
  /** One source reconnected `reconnects.count` times within the window. */
  RECONNECTS_REPEATED: 'RECONNECTS_REPEATED',
  /** Resolves RECONNECTS_REPEATED: a whole window without a reconnect. */
  RECONNECTS_SETTLED: 'RECONNECTS_SETTLED',
  SHUTDOWN_INCOMPLETE: 'SHUTDOWN_INCOMPLETE',
} as const;
export type AlertCode = (typeof AlertCode)[keyof typeof AlertCode];

/** The lifecycle `source` of the state store's connection (the daemon publishes its changes). */
export const STORE_SOURCE = 'store';

export interface AlerterOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** Alert when a connection stays down this long (clock ms). Default 30 s. */
  readonly disconnectAlertMs?: number;
  /** Repeated reconnects: `count` within `windowMs` (clock ms) of one source. Default 5 in 10 minutes. */
  readonly reconnects?: { readonly count: number; readonly windowMs: number };
  readonly webhook?: WebhookNotifier;
  /** Where derived alerts are published (the bus); they come back through `observe` and are sent once. */
  readonly publish?: (alert: AlertEvent) => void;
}

export class Alerter {
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly disconnectAlertMs: number;
  private readonly webhook: WebhookNotifier | undefined;
  private readonly publish: ((alert: AlertEvent) => void) | undefined;
  private readonly reconnectLimit: { readonly count: number; readonly windowMs: number };
  private readonly down = new Map<string, { since: number; timer: TimerHandle; alerted: boolean }>();
  /** Sources in a stall incident, with when it began. */
  private readonly stalls = new Map<string, number>();
  /** Reconnect times per source within the window, and the timer that settles an open incident. */
  private readonly reconnectTimes = new Map<string, { times: number[]; alerted: boolean; settle: TimerHandle | undefined }>();
  private tokenBlocked = false;
  private halted = false;
  private readonly raisedList: AlertEvent[] = [];

  constructor(options: AlerterOptions) {
    this.clock = options.clock;
    this.log = options.log;
    this.disconnectAlertMs = options.disconnectAlertMs ?? 30_000;
    if (!(this.disconnectAlertMs > 0)) throw new RangeError(`alerts.disconnectAfterMs must be positive, got ${this.disconnectAlertMs}`);
    this.reconnectLimit = options.reconnects ?? { count: 5, windowMs: 600_000 };
    const r = this.reconnectLimit;
    if (!(Number.isInteger(r.count) && r.count >= 2) || !(r.windowMs > 0)) throw new RangeError(`alerts.reconnects: count must be an integer >= 2 and the window positive, got ${r.count} in ${r.windowMs} ms`);
    this.webhook = options.webhook;
    this.publish = options.publish;
  }

  /** Alerts raised so far, newest last (bounded to the last 100). */
  get raised(): readonly AlertEvent[] {
    return this.raisedList;
  }

  /** Connections currently down, with the clock time they went down. */
  get disconnected(): ReadonlyMap<string, number> {
    return new Map([...this.down].map(([k, v]) => [k, v.since]));
  }

  observe(e: Event): void {
    if (e.type === 'alert') return this.deliver(e);
    if (e.type === 'trading-state') return this.onTradingState(e);
    if (e.type !== 'lifecycle') return;
    if (e.phase === 'disconnected') this.onDown(e);
    else if (e.phase === 'connected') this.onUp(e);
  }

  /**
   * Token generation stopped (`blocked`) or possible again (undefined), polled by the daemon: a
   * revoked or expired token cannot be replaced while it is stopped, and more codes would walk
   * into the broker's lockout. Once per incident.
   */
  tokenState(blocked: { readonly reason: string; readonly message: string } | undefined): void {
    if (blocked && !this.tokenBlocked) this.raise('critical', AlertCode.TOTP_LOCKOUT, `token generation stopped (${blocked.reason}): ${blocked.message}`, { reason: blocked.reason });
    else if (!blocked && this.tokenBlocked) this.raise('info', AlertCode.TOTP_UNBLOCKED, 'token generation is possible again');
    this.tokenBlocked = blocked !== undefined;
  }

  /** Sources in a stall incident now, with when it began (health reads it). */
  get stalled(): ReadonlyMap<string, number> {
    return this.stalls;
  }

  /** Raises an alert: published to the bus when a publisher is set (and delivered on its way back), else delivered now. */
  raise(level: AlertLevel, code: string, message: string, context?: Readonly<Record<string, unknown>>): void {
    const alert: AlertEvent = { type: 'alert', ts: this.clock.now(), level, code, message, ...(context ? { context } : {}) };
    if (this.publish) this.publish(alert);
    else this.deliver(alert);
  }

  /** Cancels pending disconnect timers and waits for the webhook queue to drain. */
  async stop(): Promise<void> {
    for (const d of this.down.values()) d.timer.cancel();
    this.down.clear();
    for (const r of this.reconnectTimes.values()) r.settle?.cancel();
    this.reconnectTimes.clear();
    await this.webhook?.idle();
  }

  private onTradingState(e: TradingStateEvent): void {
    const halted = e.to === 'halted';
    if (halted && !this.halted) this.raise('critical', AlertCode.TRADING_HALTED, `trading halted (${e.reason})`, { from: e.from, reason: e.reason });
    else if (!halted && this.halted) this.raise('info', AlertCode.TRADING_RESUMED, `trading ${e.to} again (${e.reason})`, { to: e.to, reason: e.reason });
    this.halted = halted;
  }

  private onDown(e: LifecycleEvent): void {
    const { source, detail } = e;
    if (e.cause === 'stalled' && !this.stalls.has(source)) {
      this.stalls.set(source, this.clock.now());
      this.raise('critical', AlertCode.WS_STALLED, `${source} stalled: no frame within the stall timeout; reconnecting until frames flow again`, { source });
    }
    if (this.down.has(source)) return;
    const since = this.clock.now();
    const store = source === STORE_SOURCE;
    const timer = this.clock.setTimeout(() => {
      const d = this.down.get(source);
      if (!d) return;
      d.alerted = true;
      const code = store ? AlertCode.STORE_DISCONNECTED : AlertCode.DISCONNECTED;
      const what = store ? 'the store is unreachable (state writes wait; a restart now would start blind)' : `${source} disconnected`;
      this.raise('critical', code, `${what} for more than ${Math.round(this.disconnectAlertMs / 1000)} s${detail ? ` (${detail})` : ''}`, { source, since });
    }, this.disconnectAlertMs);
    this.down.set(source, { since, timer, alerted: false });
  }

  private onUp(e: LifecycleEvent): void {
    const { source } = e;
    if (e.cause === 'flowing') {
      const since = this.stalls.get(source);
      if (since !== undefined) {
        this.stalls.delete(source);
        this.raise('info', AlertCode.WS_FLOWING, `${source} frames flowing again after a stall of ${Math.round((this.clock.now() - since) / 1000)} s`, { source });
      }
      return;
    }
    if (e.cause === 'reconnected') this.countReconnect(source);
    const d = this.down.get(source);
    if (!d) return;
    d.timer.cancel();
    this.down.delete(source);
    const code = source === STORE_SOURCE ? AlertCode.STORE_RECONNECTED : AlertCode.RECONNECTED;
    if (d.alerted) this.raise('info', code, `${source} reconnected after ${Math.round((this.clock.now() - d.since) / 1000)} s`, { source });
  }

  /** Counts a reconnect; `count` within the window is one incident, settled by a quiet window. */
  private countReconnect(source: string): void {
    const now = this.clock.now();
    const { count, windowMs } = this.reconnectLimit;
    let r = this.reconnectTimes.get(source);
    if (!r) this.reconnectTimes.set(source, (r = { times: [], alerted: false, settle: undefined }));
    r.times.push(now);
    while (r.times.length > 0 && r.times[0]! <= now - windowMs) r.times.shift();
    if (r.times.length >= count && !r.alerted) {
      r.alerted = true;
      this.raise('warn', AlertCode.RECONNECTS_REPEATED, `${source} reconnected ${r.times.length} times within ${Math.round(windowMs / 1000)} s`, { source, count: r.times.length });
    }
    r.settle?.cancel();
    const entry = r;
    entry.settle = this.clock.setTimeout(() => {
      entry.settle = undefined;
      entry.times = [];
      if (!entry.alerted) return;
      entry.alerted = false;
      this.raise('info', AlertCode.RECONNECTS_SETTLED, `${source} has not reconnected for ${Math.round(windowMs / 1000)} s`, { source });
    }, windowMs);
  }

  private deliver(a: AlertEvent): void {
    this.raisedList.push(a);
    if (this.raisedList.length > 100) this.raisedList.shift();
    const fields = { alert: a.code, ...(a.context ? { context: a.context } : {}) };
    if (a.level === 'critical') this.log.error(fields, a.message);
    else if (a.level === 'warn') this.log.warn(fields, a.message);
    else this.log.info(fields, a.message);
    this.webhook?.send(a);
  }
}
