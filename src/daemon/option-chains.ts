/**
 * Keeps the option chains strategies declare (`optionChains`, src/strategies/options/option-data.ts)
 * current in live and paper trading. For each declared need:
 *   - expiries are discovered through the broker client (spec 4.5 `GET /market/instruments/expiries`)
 *     at start and again on each new IST day;
 *   - inside the declared window [fromMinute, untilMinute] (IST minutes), every `refreshMs` of clock
 *     time, the selected expiry's chain is fetched (spec 4.3 `GET /market/option-chain`), converted
 *     with `chainFromWire` and published on the strategy's `OptionDataFeed` (the one mechanism,
 *     `withOptionData`, delivers it to `onChain` inside the safe runner);
 *   - every leg of a fetched chain is handed to `subscribe` (market data, so risk and the portfolio
 *     have prices for what the strategy may trade).
 * All of it runs on clock timers, off the tick path: a fetch never blocks a tick. Requests go
 * through the broker client, hence through its rate limiter (data category). A failed fetch is
 * logged and retried at the next interval; one need never has two fetches in flight.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { describeError } from '../core/errors.js';
import { scripCode, type InstrumentTable } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import { SESSION_CLOSE_MINUTE, SESSION_OPEN_MINUTE } from '../core/candles.js';
import { istDate } from '../core/time.js';
import { istMinuteOfDay } from '../core/time-of-day.js';
import { chainFromWire } from '../strategies/options/chain-from-wire.js';
import { selectExpiry } from '../strategies/options/expiry-select.js';
import type { OptionChainNeed } from '../strategies/options/option-data.js';
import type { OptionDataFeed } from '../strategies/options/option-data-feed.js';

export const DEFAULT_CHAIN_REFRESH_MS = 60_000;

/** What the chain service needs from the broker (the broker session implements it). */
export interface OptionDataSource {
  expiries(underlying: string): Promise<readonly string[]>;
  optionChain(q: { exchange: string; segment: 'INDEX' | 'EQUITY'; underlyingScrip: string; expiry: string; strikeCount?: number }): Promise<unknown>;
}

export interface ChainSubscription {
  readonly strategyId: string;
  readonly need: OptionChainNeed;
  readonly feed: OptionDataFeed;
}

export interface OptionChainServiceOptions {
  readonly clock: Clock;
  readonly log: Logger;
  readonly source: OptionDataSource;
  readonly instruments: InstrumentTable;
  readonly needs: readonly ChainSubscription[];
  /** New option legs to subscribe for ticks (the daemon adds them to the market-data feed). */
  readonly subscribe: (instruments: readonly string[]) => void;
}

interface NeedState {
  readonly sub: ChainSubscription;
  readonly refreshMs: number;
  expiries: readonly string[] | undefined;
  expiriesDay: string | undefined;
  busy: boolean;
  failures: number;
}

export class OptionChainService {
  private readonly o: OptionChainServiceOptions;
  private readonly states: NeedState[];
  private readonly subscribed = new Set<string>();
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** Chains published so far (status, tests). */
  published = 0;

  constructor(o: OptionChainServiceOptions) {
    this.o = o;
    this.states = o.needs.map((sub) => {
      const refreshMs = sub.need.refreshMs ?? DEFAULT_CHAIN_REFRESH_MS;
      if (!(refreshMs >= 1_000)) throw new RangeError(`strategy ${sub.strategyId}: optionChains refreshMs must be at least 1000, got ${refreshMs}`);
      return { sub, refreshMs, expiries: undefined, expiriesDay: undefined, busy: false, failures: 0 };
    });
  }

  /** Option legs subscribed so far. */
  legs(): readonly string[] {
    return [...this.subscribed];
  }

  /** Discovers expiries, fetches what is due now, then keeps refreshing on the clock. */
  start(): void {
    if (this.states.length === 0) return;
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private tick(): void {
    if (this.stopped) return;
    for (const s of this.states) void this.refresh(s);
    const next = Math.min(...this.states.map((s) => s.refreshMs));
    this.timer = this.o.clock.setTimeout(() => this.tick(), next);
  }

  private inWindow(need: OptionChainNeed, now: number): boolean {
    const m = istMinuteOfDay(now);
    return m >= (need.fromMinute ?? SESSION_OPEN_MINUTE) && m <= (need.untilMinute ?? SESSION_CLOSE_MINUTE);
  }

  private async refresh(s: NeedState): Promise<void> {
    if (s.busy) return;
    s.busy = true;
    const { need, feed, strategyId } = s.sub;
    try {
      const now = this.o.clock.now();
      const today = istDate(now);
      if (s.expiriesDay !== today) {
        s.expiries = await this.o.source.expiries(need.underlying);
        s.expiriesDay = today;
        feed.setExpiries(need.underlying, s.expiries);
        this.o.log.info({ strategy: strategyId, underlying: need.underlying, expiries: s.expiries.slice(0, 4) }, 'option chains: expiries discovered');
      }
      if (!this.inWindow(need, this.o.clock.now())) return;
      const expiry = selectExpiry(need.expiry, s.expiries ?? [], { today });
      if (expiry === undefined) {
        this.o.log.warn({ strategy: strategyId, underlying: need.underlying, selector: need.expiry }, 'option chains: no expiry matches the selector');
        return;
      }
      const u = this.o.instruments.get(need.underlyingInstrument);
      if (!u) throw new Error(`underlying ${need.underlyingInstrument} is not in the instrument master`);
      const data = await this.o.source.optionChain({
        exchange: u.exchange,
        segment: u.kind === 'INDEX' ? 'INDEX' : 'EQUITY',
        underlyingScrip: u.securityId,
        expiry,
        strikeCount: need.strikeCount,
      });
      const chain = chainFromWire(data, {
        underlying: need.underlying,
        underlyingInstrument: need.underlyingInstrument,
        ts: this.o.clock.now(),
        exchange: u.exchange,
        contract: (id) => this.o.instruments.get(scripCode(u.exchange, 'FNO', id)),
      });
      const fresh: string[] = [];
      for (const row of chain.strikes) {
        for (const q of [row.ce, row.pe]) if (q && !this.subscribed.has(q.instrument)) fresh.push(q.instrument);
      }
      if (fresh.length > 0) {
        for (const i of fresh) this.subscribed.add(i);
        this.o.subscribe(fresh);
      }
      feed.publish(chain);
      this.published++;
      if (s.failures > 0) this.o.log.info({ strategy: strategyId, underlying: need.underlying }, 'option chains: fetching works again');
      s.failures = 0;
    } catch (e) {
      s.failures++;
      // Loud once, then quieter: a broker outage would otherwise log every interval at warn.
      const level = s.failures === 1 ? 'warn' : 'debug';
      this.o.log[level]({ strategy: strategyId, underlying: need.underlying, failures: s.failures, err: describeError(e) }, 'option chains: refresh failed; retrying at the next interval');
    } finally {
      s.busy = false;
    }
  }
}
