/**
 * Operator alerts. Watches the bus and raises what an operator must hear about:
 * - every `alert` event some component published (kill switch, lockout, reconciliation findings);
 * - a connection (`lifecycle` disconnected/connected, by `source`) down for longer than
 *   `disconnectAlertMs` of clock time, and its recovery afterwards;
 * - the trading state turning `halted` (kill switch, manual halt), from the `trading-state` event,
 *   and its end (TRADING_RESUMED) when trading leaves `halted` after that alert.
 * Each alert goes to the log (warn/error by level) and to the optional webhook; alerts the alerter
 * derives itself are also published back to the bus (`publish`) so that the recording has them.
 */
import type { AlertEvent, AlertLevel, Event, TradingStateEvent } from '../../core/events.js';
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
  TOTP_LOCKOUT: 'TOTP_LOCKOUT',
  RECONCILE_UNKNOWN_ORDER: 'RECONCILE_UNKNOWN_ORDER',
  RECONCILE_MISMATCH: 'RECONCILE_MISMATCH',
  STORE_DISCONNECTED: 'STORE_DISCONNECTED',
  SHUTDOWN_INCOMPLETE: 'SHUTDOWN_INCOMPLETE',
} as const;
export type AlertCode = (typeof AlertCode)[keyof typeof AlertCode];

export interface AlerterOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** Alert when a connection stays down this long (clock ms). Default 30 s. */
  readonly disconnectAlertMs?: number;
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
  private readonly down = new Map<string, { since: number; timer: TimerHandle; alerted: boolean }>();
  private halted = false;
  private readonly raisedList: AlertEvent[] = [];

  constructor(options: AlerterOptions) {
    this.clock = options.clock;
    this.log = options.log;
    this.disconnectAlertMs = options.disconnectAlertMs ?? 30_000;
    if (!(this.disconnectAlertMs > 0)) throw new RangeError(`alerts.disconnectAfterMs must be positive, got ${this.disconnectAlertMs}`);
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
    if (e.phase === 'disconnected') this.onDown(e.source, e.detail);
    else if (e.phase === 'connected') this.onUp(e.source);
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
    await this.webhook?.idle();
  }

  private onTradingState(e: TradingStateEvent): void {
    const halted = e.to === 'halted';
    if (halted && !this.halted) this.raise('critical', AlertCode.TRADING_HALTED, `trading halted (${e.reason})`, { from: e.from, reason: e.reason });
    else if (!halted && this.halted) this.raise('info', AlertCode.TRADING_RESUMED, `trading ${e.to} again (${e.reason})`, { to: e.to, reason: e.reason });
    this.halted = halted;
  }

  private onDown(source: string, detail: string | undefined): void {
    if (this.down.has(source)) return;
    const since = this.clock.now();
    const timer = this.clock.setTimeout(() => {
      const d = this.down.get(source);
      if (!d) return;
      d.alerted = true;
      this.raise('critical', AlertCode.DISCONNECTED, `${source} disconnected for more than ${Math.round(this.disconnectAlertMs / 1000)} s${detail ? ` (${detail})` : ''}`, { source, since });
    }, this.disconnectAlertMs);
    this.down.set(source, { since, timer, alerted: false });
  }

  private onUp(source: string): void {
    const d = this.down.get(source);
    if (!d) return;
    d.timer.cancel();
    this.down.delete(source);
    if (d.alerted) this.raise('info', AlertCode.RECONNECTED, `${source} reconnected after ${Math.round((this.clock.now() - d.since) / 1000)} s`, { source });
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
