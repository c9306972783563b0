/**
 * `orb-smart`: opening-range breakout on an equity, entered with a smart order.
 *
 * Each session the high and low of the first `rangeMinutes` after 09:15 form the range. The first
 * candle that closes above the high (below the low) places a BUY (SELL) smart order: a TRIGGER
 * parent a few ticks beyond that close, a stop-loss leg and a target leg (OCO once entered), and,
 * when `trailingStep` is set, a trailing stop-loss. Spec 3.4 does not allow `is_tsl` on a TRIGGER
 * parent (and tarang's risk layer refuses a trailing step there), so neither the broker nor the
 * engine's emulator trails this order: the strategy trails the leg itself with modify intents, by
 * the spec 3.4 rule (`trailedStop`), from the first candle after the entry filled, moving it only
 * by `trailMinTicks` or more and at most `trailBudget` times (the broker allows 25 modifications;
 * after the budget the stop holds). At most one attempt per direction per day; an unfilled entry is
 * cancelled when the opposite side breaks; everything is flattened at `exitTime`.
 *
 * Warm-up: none (`warmup: 0`). The range is the strategy's own warm-up, and a day whose range was
 * not seen whole (started mid-session, a missing candle) is skipped rather than traded.
 *
 * State (`ctx.state.orb`, persisted): the day, the range, which directions were tried, the tag of
 * the working smart order and whether the day was flattened, so a restart mid-session neither
 * re-enters a direction nor loses track of its order.
 */
import { z } from 'zod';
import type { Interval } from '../../core/candles.js';
import type { CandleEvent, OrderSnapshot, PositionEvent } from '../../core/events.js';
import { isTerminalStatus } from '../../core/enums.js';
import { formatRupees, rupeesToTick } from '../../core/money.js';
import { istDate, istDateTime } from '../../core/time.js';
import { defineStrategy, type Strategy, type StrategyContext } from '../strategy.js';
import { planEntry } from './entry-plan.js';
import { OpeningRange, RangeStatus } from './opening-range.js';
import { orbSmartParams, type OrbSmartParams } from './params.js';
import { formatMinuteOfDay, istMinuteOfDay } from '../../core/time-of-day.js';
import { trailedStop } from './trailing-stop.js';

const savedState = z.object({
  day: z.string(),
  range: z.object({ status: z.enum(['building', 'complete', 'incomplete']), high: z.number(), low: z.number(), next: z.number() }),
  triedLong: z.boolean(),
  triedShort: z.boolean(),
  /** Client tag of the working smart order (entry pending or position open), or null. */
  active: z.string().nullable(),
  activeSide: z.enum(['BUY', 'SELL']).nullable(),
  flattened: z.boolean(),
  /** The stop the working smart order was placed with, paise. */
  stop: z.number().nullable().default(null),
  /** Trailing state once the entry filled: entry price, best price since, trail start time. */
  trail: z.object({ entry: z.number(), best: z.number(), since: z.number(), step: z.number() }).nullable().default(null),
});
type SavedState = z.output<typeof savedState>;

class OrbSmart implements Strategy {
  readonly instruments: readonly string[];
  readonly intervals: readonly Interval[];
  readonly warmup = 0;
  private range: OpeningRange | undefined;
  private s: SavedState | undefined;
  private tick = 5;

  constructor(private readonly p: OrbSmartParams) {
    this.instruments = [p.instrument];
    this.intervals = [p.interval];
  }

  onStart(ctx: StrategyContext): void {
    const inst = ctx.instruments.get(this.p.instrument);
    // Thrown from onStart, these pause this strategy with the message (the runner isolates it).
    if (!inst) throw new Error(`orb-smart: instrument ${this.p.instrument} is not in the instrument master`);
    if (this.p.qty % inst.lotSize !== 0) throw new Error(`orb-smart: qty ${this.p.qty} is not a multiple of the lot size ${inst.lotSize} of ${inst.tradingSymbol}`);
    this.tick = inst.tickSize;
    const saved = savedState.safeParse(ctx.state['orb']);
    if (saved.success) {
      this.s = saved.data;
      ctx.state['orb'] = this.s;
      this.range = OpeningRange.restore(this.dayInstant(saved.data.day), this.p.rangeMinutes, this.p.interval, saved.data.range);
    } else if (ctx.state['orb'] !== undefined) {
      ctx.log.warn({ issues: saved.error.issues.length }, 'orb-smart: saved state unreadable, starting the day afresh');
    }
  }

  onCandle(c: CandleEvent, ctx: StrategyContext): void {
    if (c.instrument !== this.p.instrument || c.interval !== this.p.interval) return;
    const s = this.dayState(c, ctx);
    const range = this.range!;
    if (range.status === RangeStatus.BUILDING) {
      const status = range.add(c);
      if (status === RangeStatus.INCOMPLETE) ctx.log.info({ day: s.day }, 'orb-smart: opening range not seen whole, no trades today');
      if (status === RangeStatus.COMPLETE) {
        const r = range.snapshot();
        ctx.log.info({ day: s.day, high: formatRupees(r.high), low: formatRupees(r.low) }, 'orb-smart: opening range set');
      }
    }
    s.range = range.toJSON();

    const closeMinute = istMinuteOfDay(c.ts);
    if (closeMinute >= this.p.exitTime) {
      this.flatten(s, ctx);
      return;
    }
    this.forgetFinished(s, ctx);
    this.trail(s, c, ctx);
    if (ctx.warmingUp || range.status !== RangeStatus.COMPLETE || c.start < range.end) return;
    if (closeMinute > this.p.lastEntryTime) return;

    const r = range.snapshot();
    const side = c.close > r.high ? 'BUY' : c.close < r.low ? 'SELL' : undefined;
    if (!side) return;
    const allowed = this.p.direction === 'both' || (side === 'BUY') === (this.p.direction === 'long');
    const tried = side === 'BUY' ? s.triedLong : s.triedShort;
    if (!allowed || tried) return;

    if (s.active) {
      // An entry still waiting for its trigger is abandoned for the opposite breakout; a position
      // already open keeps its own legs.
      if (s.activeSide === side || ctx.portfolio.netQty(this.p.instrument) !== 0) return;
      const parent = ctx.orders.get(s.active);
      if (parent && parent.filledQty > 0) return;
      ctx.cancel(s.active);
      s.active = null;
      s.activeSide = null;
    }

    const plan = planEntry(this.p, { side, close: c.close, rangeHigh: r.high, rangeLow: r.low }, this.tick);
    if (side === 'BUY') s.triedLong = true;
    else s.triedShort = true;
    s.active = ctx.submit(plan.intent);
    s.activeSide = side;
    s.stop = plan.intent.stopLoss?.triggerPrice ?? null;
    s.trail = null;
    ctx.log.info(
      {
        tag: s.active,
        side,
        trigger: formatRupees(plan.intent.triggerPrice ?? 0),
        stop: formatRupees(plan.intent.stopLoss?.triggerPrice ?? 0),
        target: formatRupees(plan.intent.target?.triggerPrice ?? 0),
        trailingStep: plan.trailStep === undefined ? undefined : formatRupees(plan.trailStep),
      },
      'orb-smart: breakout, smart order submitted',
    );
  }

  onOrder(o: OrderSnapshot, ctx: StrategyContext): void {
    const s = this.s;
    if (!s || o.tag !== s.active || o.leg === 'stopLoss' || o.leg === 'target') return;
    if (o.filledQty > 0 && s.trail === null && this.p.trailingStep > 0) {
      const step = Math.max(this.tick, rupeesToTick(this.p.trailingStep, this.tick));
      const entry = Math.round(o.filledValue / o.filledQty);
      s.trail = { entry, best: entry, since: ctx.clock.now(), step };
    }
    if (isTerminalStatus(o.status) && o.filledQty === 0) {
      if (o.status === 'REJECTED') ctx.log.warn({ tag: o.tag, reason: o.reason }, 'orb-smart: entry refused');
      s.active = null;
      s.activeSide = null;
    }
  }

  onPosition(pos: PositionEvent, _ctx: StrategyContext): void {
    const s = this.s;
    if (!s || pos.instrument !== this.p.instrument || pos.netQty !== 0 || !s.active) return;
    // Flat again after an entry filled: a leg (stop-loss or target) closed the trade.
    s.active = null;
    s.activeSide = null;
    s.trail = null;
  }

  /**
   * Moves the stop-loss leg after favourable movement (spec 3.4 rule). Only candles that started
   * after the entry filled count: the fill candle's extreme may have come before the fill.
   */
  private trail(s: SavedState, c: CandleEvent, ctx: StrategyContext): void {
    const t = s.trail;
    if (!t || !s.active || !s.activeSide || s.stop === null || c.start <= t.since) return;
    const long = s.activeSide === 'BUY';
    t.best = long ? Math.max(t.best, c.high) : Math.min(t.best, c.low);
    const leg = ctx.orders.open(this.p.instrument).find((o) => o.parentTag === s.active && o.leg === 'stopLoss');
    if (!leg || leg.triggerPrice === undefined) return;
    let desired = trailedStop({ side: s.activeSide, entry: t.entry, initialStop: s.stop, best: t.best, step: t.step, tick: this.tick });
    // A stop at or through the market would fire at once (and the venue refuses it): keep a tick away.
    desired = long ? Math.min(desired, c.close - this.tick) : Math.max(desired, c.close + this.tick);
    const gain = long ? desired - leg.triggerPrice : leg.triggerPrice - desired;
    if (gain < this.p.trailMinTicks * this.tick) return;
    if (leg.modifications >= this.p.trailBudget) {
      if (leg.modifications === this.p.trailBudget) ctx.log.info({ tag: s.active, stop: formatRupees(leg.triggerPrice) }, 'orb-smart: trail budget spent, the stop holds');
      return;
    }
    ctx.submit({ kind: 'modify', target: s.active, leg: 'stopLoss', triggerPrice: desired });
  }

  /**
   * Clears a working order that ended without a trade (denied by risk, rejected, expired). An order
   * the engine no longer knows (a denial never became one; a finished one may have been pruned)
   * counts as ended only when nothing of it is left: no position, no working leg.
   */
  private forgetFinished(s: SavedState, ctx: StrategyContext): void {
    if (!s.active) return;
    const active = s.active;
    const flat = ctx.portfolio.netQty(this.p.instrument) === 0;
    const o = ctx.orders.get(active);
    const ended = o === undefined ? flat && !ctx.orders.open(this.p.instrument).some((x) => x.parentTag === active) : isTerminalStatus(o.status) && o.filledQty === 0 && flat;
    if (ended) {
      s.active = null;
      s.activeSide = null;
      s.trail = null;
    }
  }

  private flatten(s: SavedState, ctx: StrategyContext): void {
    if (s.flattened) return;
    s.flattened = true;
    if (this.closeOut(ctx)) ctx.log.info({ at: formatMinuteOfDay(this.p.exitTime) }, 'orb-smart: exit time, flattening');
    s.active = null;
    s.activeSide = null;
    s.trail = null;
  }

  /**
   * Cancels this strategy's working orders in the instrument and closes its position. The legs of
   * a smart order whose entry already filled are cancelled one by one: they outlive the session
   * (spec: smart orders live up to 365 days) and an exit that left them would let a stale target
   * or stop open a new position on a later day. Returns whether there was anything to close.
   */
  private closeOut(ctx: StrategyContext): boolean {
    const open = ctx.orders.open(this.p.instrument);
    for (const o of open) if (o.leg === 'stopLoss' || o.leg === 'target') ctx.cancel(o.tag);
    if (ctx.portfolio.netQty(this.p.instrument) === 0 && open.length === 0) return false;
    ctx.exit(this.p.instrument, this.p.product);
    return true;
  }

  /** The state of the candle's day, starting a fresh one on the first candle of a new session. */
  private dayState(c: CandleEvent, ctx: StrategyContext): SavedState {
    const day = istDate(c.start);
    if (this.s?.day !== day || !this.range) {
      // Anything left from an earlier session (the exit candle never came: a data gap, a restart
      // after the close) is closed before the new day's range is traded.
      if (this.s !== undefined && this.closeOut(ctx)) ctx.log.warn({ from: this.s.day }, 'orb-smart: position or orders left from an earlier session, closing them');
      this.range = new OpeningRange(c.start, this.p.rangeMinutes, this.p.interval);
      this.s = { day, range: this.range.toJSON(), triedLong: false, triedShort: false, active: null, activeSide: null, flattened: false, stop: null, trail: null };
      ctx.state['orb'] = this.s;
    }
    return this.s;
  }

  private dayInstant(day: string): number {
    return istDateTime(day, '12:00');
  }
}

export const orbSmart = defineStrategy({
  name: 'orb-smart',
  description: 'Opening-range breakout entered with a smart order (TRIGGER parent, stop-loss and target legs, optional trailing stop)',
  params: orbSmartParams,
  // What `--sweep` alone and `--walk-forward` search: the range's length and the target's multiple.
  space: { rangeMinutes: { from: 15, to: 60, step: 15 }, targetValue: { from: 1, to: 3, step: 0.5 } },
  create: (p) => new OrbSmart(p),
});
