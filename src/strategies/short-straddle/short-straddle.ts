/**
 * `short-straddle`: at `entryTime` sells the at-the-money call and put of the nearest weekly
 * (or chosen) expiry of an index, `lots` lots each (marketable limits `entryLimitPercent` below the
 * quote, or at market); protects each leg with its own BUY stop-loss at
 * `stopLossPercent` above its fill; buys everything back at `exitTime`.
 *
 * Data: the strategy declares the chain it needs (`optionChains`, see src/strategies/options/option-data.ts) and reads
 * the latest one from `ctx.options`; it never calls the broker. The expiry is checked against the
 * discovered expiries (spec 4.5), the ATM strike is the one nearest the chain's spot, lot sizes
 * come from the instrument master (`ctx.instruments`, falling back to the chain's with a warning),
 * and greeks are the broker's or computed locally (`legGreeks`) for the IV filter and the log.
 *
 * Margin: the strategy sizes by lots and leaves the margin check to the risk layer. If either
 * leg is refused (denied for funds, rejected by the venue) the other is unwound at once, so the
 * strategy never holds a naked leg it did not mean to; a leg whose stop is refused is closed too.
 *
 * State (`ctx.state.straddle`, persisted): the day's phase, the chosen expiry and strike, and per
 * leg its tags, fill price and status, so a restart neither sells twice nor forgets a stop.
 */
import { z } from 'zod';
import type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent, TickEvent } from '../../core/events.js';
import { isTerminalStatus } from '../../core/enums.js';
import { Rounding, formatRupees, roundToTick, type Paise } from '../../core/money.js';
import { istDate } from '../../core/time.js';
import { defineStrategy, type StrategyContext } from '../strategy.js';
import { formatMinuteOfDay, istMinuteOfDay } from '../../core/time-of-day.js';
import { selectExpiry } from '../options/expiry-select.js';
import { legGreeks, type LegGreeks } from '../options/leg-greeks.js';
import { atmStrike, type OptionChainNeed, type OptionChainSnapshot, type OptionQuote, type OptionStrategy, type OptionStrategyContext } from '../options/option-data.js';
import { shortStraddleParams, type ShortStraddleParams } from './params.js';

const legState = z.object({
  optionType: z.enum(['CE', 'PE']),
  instrument: z.string(),
  qty: z.number(),
  tick: z.number(),
  entryTag: z.string(),
  stopTag: z.string().nullable(),
  /** Average fill price of the sale, paise (rounded), once filled. */
  entryPrice: z.number().nullable(),
  /** The sale's fills as received (the order's state may report a fill before its execution arrives). */
  soldQty: z.number().default(0),
  soldValue: z.number().default(0),
  /** The sale's order has been reported (so it was not denied), and its final filled quantity once it ended. */
  entrySeen: z.boolean().default(false),
  entryFinalQty: z.number().nullable().default(null),
  stopSeen: z.boolean().default(false),
  /**
   * Clock time the sale / the stop was submitted. An intent is queued on the bus until the event
   * being handled has been dispatched, so in that same instant `ctx.orders.get` cannot know it yet.
   */
  entryAt: z.number().default(0),
  stopAt: z.number().default(0),
  status: z.enum(['entering', 'open', 'stopped', 'closed', 'failed']),
});
type LegState = z.output<typeof legState>;

const savedState = z.object({
  day: z.string(),
  phase: z.enum(['waiting', 'entered', 'skipped', 'done']),
  expiry: z.string().nullable(),
  strike: z.number().nullable(),
  legs: z.array(legState),
});
type SavedState = z.output<typeof savedState>;

class ShortStraddle implements OptionStrategy {
  readonly instruments: readonly string[];
  readonly intervals = ['1minute'] as const;
  /** No indicator history is needed: the chain at entry time is all the strategy reads. */
  readonly warmup = 0;
  readonly optionChains: readonly OptionChainNeed[];
  private s: SavedState | undefined;

  constructor(private readonly p: ShortStraddleParams) {
    this.instruments = [p.underlyingInstrument];
    this.optionChains = [
      {
        underlying: p.underlying,
        underlyingInstrument: p.underlyingInstrument,
        expiry: p.expiry === 'nearest' || p.expiry === 'nearest-monthly' ? p.expiry : { date: p.expiry },
        strikeCount: p.strikeCount,
        // Only the entry window needs a chain: no data-API budget is spent outside it.
        fromMinute: Math.max(p.entryTime - 1, 0),
        untilMinute: p.entryTime + p.entryWindowMinutes,
      },
    ];
  }

  onStart(ctx: OptionStrategyContext): void {
    const saved = savedState.safeParse(ctx.state['straddle']);
    if (saved.success) {
      this.s = saved.data;
      ctx.state['straddle'] = this.s;
    } else if (ctx.state['straddle'] !== undefined) {
      ctx.log.warn('short-straddle: saved state unreadable, starting afresh');
    }
  }

  onCandle(_c: CandleEvent, ctx: OptionStrategyContext): void {
    this.step(ctx);
  }

  onTick(_t: TickEvent, ctx: OptionStrategyContext): void {
    this.step(ctx);
  }

  onChain(_chain: OptionChainSnapshot, ctx: OptionStrategyContext): void {
    this.step(ctx);
  }

  onOrder(o: OrderSnapshot, ctx: OptionStrategyContext): void {
    const s = this.s;
    if (!s) return;
    const entryLeg = s.legs.find((l) => l.entryTag === o.tag);
    if (entryLeg) entryLeg.entrySeen = true;
    if (entryLeg && entryLeg.status === 'entering' && isTerminalStatus(o.status)) {
      entryLeg.entryFinalQty = o.filledQty;
      if (o.filledQty > 0) this.maybeProtect(entryLeg, ctx);
      else {
        ctx.log.warn({ leg: entryLeg.optionType, status: o.status, reason: o.reason }, 'short-straddle: leg not sold');
        entryLeg.status = 'failed';
        this.unwind(s, ctx, `${entryLeg.optionType} leg not sold`);
      }
      return;
    }
    const stopLeg = s.legs.find((l) => l.stopTag === o.tag);
    if (stopLeg) stopLeg.stopSeen = true;
    if (!stopLeg || !isTerminalStatus(o.status)) return;
    if (o.status === 'FILLED') {
      // The position event of the same fill may have come first and marked the leg closed.
      if (stopLeg.status === 'stopped') return;
      stopLeg.status = 'stopped';
      ctx.log.info({ leg: stopLeg.optionType, price: o.filledQty > 0 ? formatRupees(Math.round(o.filledValue / o.filledQty)) : undefined }, 'short-straddle: stop-loss hit');
      if (this.p.otherStopToCost) this.moveOtherStopToCost(s, stopLeg, ctx);
    } else if (stopLeg.status === 'open' && s.phase === 'entered') {
      // A short option without its stop is unbounded risk: close it rather than trade unprotected.
      ctx.log.error({ leg: stopLeg.optionType, status: o.status, reason: o.reason }, 'short-straddle: stop-loss order lost, closing the leg');
      stopLeg.stopTag = null;
      this.closeLeg(stopLeg, ctx);
    }
  }

  onFill(f: FillEvent, ctx: OptionStrategyContext): void {
    const leg = this.s?.legs.find((l) => l.entryTag === f.tag);
    if (!leg) return;
    leg.soldQty += f.qty;
    leg.soldValue += f.qty * f.price;
    if (leg.status === 'entering') this.maybeProtect(leg, ctx);
  }

  onPosition(pos: PositionEvent, _ctx: OptionStrategyContext): void {
    const leg = this.s?.legs.find((l) => l.instrument === pos.instrument && l.status === 'open');
    if (leg && pos.netQty === 0) leg.status = 'closed';
  }

  private step(ctx: OptionStrategyContext): void {
    const now = ctx.clock.now();
    const s = this.dayState(now, ctx);
    this.reconcile(s, ctx);
    const minute = istMinuteOfDay(now);
    if (minute >= this.p.exitTime) {
      if (s.phase === 'entered') {
        ctx.log.info({ at: formatMinuteOfDay(this.p.exitTime) }, 'short-straddle: exit time, buying back');
        for (const leg of s.legs) this.closeLeg(leg, ctx);
      }
      if (s.phase !== 'skipped') s.phase = 'done';
      return;
    }
    if (s.phase !== 'waiting' || minute < this.p.entryTime || ctx.warmingUp) return;
    if (minute > this.p.entryTime + this.p.entryWindowMinutes) {
      s.phase = 'skipped';
      ctx.log.warn({ underlying: this.p.underlying }, 'short-straddle: no usable option chain in the entry window, no trade today');
      return;
    }
    this.tryEnter(s, now, ctx);
  }

  private tryEnter(s: SavedState, now: number, ctx: OptionStrategyContext): void {
    const chain = ctx.options.chain(this.p.underlying);
    if (!chain || now - chain.ts > this.p.maxChainAgeSeconds * 1000) return;
    const expiries = ctx.options.expiries(this.p.underlying) ?? [chain.expiry];
    const selector = this.optionChains[0]!.expiry;
    const expiry = selectExpiry(selector, expiries, { today: s.day, minDaysToExpiry: this.p.minDaysToExpiry });
    if (expiry === undefined) {
      s.phase = 'skipped';
      ctx.log.warn({ expiries: expiries.slice(0, 4) }, 'short-straddle: no expiry matches, no trade today');
      return;
    }
    if (chain.expiry !== expiry) return; // the engine has not refreshed to the expiry in force yet
    const atm = atmStrike(chain);
    const ce = atm?.ce;
    const pe = atm?.pe;
    if (!atm || !ce || !pe || ce.ltp === undefined || pe.ltp === undefined) return;

    const ceGreeks = legGreeks(ce, chain.spot, now, { rate: this.p.rate });
    const peGreeks = legGreeks(pe, chain.spot, now, { rate: this.p.rate });
    const iv = meanIv(ceGreeks, peGreeks);
    ctx.log.info(
      { expiry, strike: formatRupees(atm.strike), spot: formatRupees(chain.spot), ce: describe(ce, ceGreeks), pe: describe(pe, peGreeks) },
      'short-straddle: at-the-money legs',
    );
    if (this.p.minIv > 0 && (iv === undefined || iv < this.p.minIv)) {
      s.phase = 'skipped';
      ctx.log.info({ iv, minIv: this.p.minIv }, 'short-straddle: implied volatility below minIv, no trade today');
      return;
    }

    s.expiry = expiry;
    s.strike = atm.strike;
    s.phase = 'entered';
    for (const q of [ce, pe]) {
      const lot = this.lotSize(q, ctx);
      const qty = this.p.lots * lot;
      const tick = ctx.instruments.get(q.instrument)?.tickSize ?? q.tickSize;
      const ref = q.bid ?? q.ltp;
      const limit = this.p.entryLimitPercent > 0 && ref !== undefined ? Math.max(tick, roundToTick(ref * (1 - this.p.entryLimitPercent / 100), tick, Rounding.DOWN)) : undefined;
      const entryTag = ctx.submit({
        kind: 'place',
        instrument: q.instrument,
        side: 'SELL',
        qty,
        ...(limit === undefined ? { orderType: 'MARKET' as const } : { orderType: 'LIMIT' as const, limitPrice: limit }),
        validity: 'DAY',
        product: this.p.product,
      });
      s.legs.push({ optionType: q.optionType, instrument: q.instrument, qty, tick, entryTag, stopTag: null, entryPrice: null, soldQty: 0, soldValue: 0, entrySeen: false, entryFinalQty: null, stopSeen: false, entryAt: now, stopAt: 0, status: 'entering' });
    }
  }

  /**
   * Once the sale has ended (filled, or partly filled and then cancelled/expired) and all its
   * executions are in, places the leg's stop for what was sold, priced from the executions: the
   * order's state can report a fill before the execution itself arrives (live and paper), and a
   * stop priced from a fill not yet seen would be wrong.
   */
  private maybeProtect(leg: LegState, ctx: StrategyContext): void {
    const final = leg.entryFinalQty;
    if (final === null || final === 0 || leg.soldQty < final) return;
    this.protect(leg, ctx);
  }

  private protect(leg: LegState, ctx: StrategyContext): void {
    const avg = leg.soldValue / leg.soldQty;
    leg.entryPrice = Math.round(avg);
    leg.qty = leg.soldQty;
    leg.status = 'open';
    const trigger = stopTrigger(avg, this.p.stopLossPercent, leg.tick);
    const limit = this.p.stopLimitBufferPercent > 0 ? roundToTick(trigger * (1 + this.p.stopLimitBufferPercent / 100), leg.tick, Rounding.UP) : undefined;
    leg.stopAt = ctx.clock.now();
    leg.stopTag = ctx.submit({
      kind: 'place',
      instrument: leg.instrument,
      side: 'BUY',
      qty: leg.qty,
      orderType: 'STOP_LOSS',
      triggerPrice: trigger,
      ...(limit === undefined ? {} : { limitPrice: limit }),
      validity: 'DAY',
      product: this.p.product,
    });
    ctx.log.info({ leg: leg.optionType, sold: formatRupees(leg.entryPrice), qty: leg.qty, stop: formatRupees(trigger) }, 'short-straddle: leg sold, stop placed');
  }

  /**
   * After one leg is stopped out, tightens the other leg's stop to its entry premium: the trade can
   * then lose no more than the first stop cost. A BUY stop must sit above the market, so when the
   * premium is already above cost the stop goes one tick above the last price instead, and only if
   * that is tighter than the stop it has.
   */
  private moveOtherStopToCost(s: SavedState, stopped: LegState, ctx: StrategyContext): void {
    const other = s.legs.find((l) => l !== stopped && l.status === 'open' && l.stopTag !== null && l.entryPrice !== null);
    if (!other || other.stopTag === null || other.entryPrice === null) return;
    const last = ctx.portfolio.lastPrice(other.instrument);
    const floor = last === undefined ? 0 : last + other.tick;
    const trigger = roundToTick(Math.max(other.entryPrice, floor), other.tick, Rounding.UP);
    const current = ctx.orders.get(other.stopTag)?.triggerPrice;
    if (current !== undefined && trigger >= current) return;
    const limit = this.p.stopLimitBufferPercent > 0 ? roundToTick(trigger * (1 + this.p.stopLimitBufferPercent / 100), other.tick, Rounding.UP) : undefined;
    ctx.submit({ kind: 'modify', target: other.stopTag, triggerPrice: trigger, ...(limit === undefined ? {} : { limitPrice: limit }) });
    ctx.log.info({ leg: other.optionType, stop: formatRupees(trigger) }, 'short-straddle: other leg stop tightened towards cost');
  }

  /**
   * Intents the engine refused outright never become orders (no order event ever names them):
   * treat them as failed legs. An order once reported and now unknown merely finished. Only from a
   * later instant than the submission: within the event that submitted it (a candle and the tick
   * behind it, a chain and the tick that delivered it), the intent is still queued on the bus.
   */
  private reconcile(s: SavedState, ctx: StrategyContext): void {
    if (s.phase !== 'entered') return;
    const now = ctx.clock.now();
    for (const leg of s.legs) {
      if (leg.status === 'entering' && !leg.entrySeen && now > leg.entryAt && ctx.orders.get(leg.entryTag) === undefined) {
        ctx.log.warn({ leg: leg.optionType, tag: leg.entryTag }, 'short-straddle: leg sale was denied');
        leg.status = 'failed';
      }
      if (leg.status === 'open' && leg.stopTag !== null && !leg.stopSeen && now > leg.stopAt && ctx.orders.get(leg.stopTag) === undefined) {
        ctx.log.error({ leg: leg.optionType }, 'short-straddle: stop-loss was denied, closing the leg');
        leg.stopTag = null;
        this.closeLeg(leg, ctx);
      }
    }
    if (s.legs.some((l) => l.status === 'failed')) this.unwind(s, ctx, 'a leg was not sold');
  }

  private unwind(s: SavedState, ctx: StrategyContext, why: string): void {
    if (s.phase === 'done') return;
    s.phase = 'done';
    ctx.log.warn({ why }, 'short-straddle: unwinding the straddle');
    for (const leg of s.legs) this.closeLeg(leg, ctx);
  }

  private closeLeg(leg: LegState, ctx: StrategyContext): void {
    if (leg.status !== 'entering' && leg.status !== 'open') return;
    // Exit cancels the strategy's working orders in the instrument (a sale still in flight, the
    // stop) and buys back whatever was sold.
    ctx.exit(leg.instrument, this.p.product);
    leg.status = 'closed';
  }

  private lotSize(q: OptionQuote, ctx: StrategyContext): number {
    const master = ctx.instruments.get(q.instrument)?.lotSize;
    if (master === undefined) {
      ctx.log.warn({ instrument: q.instrument, lotSize: q.lotSize }, 'short-straddle: option not in the instrument master, using the chain lot size');
      return q.lotSize;
    }
    if (master !== q.lotSize) ctx.log.warn({ instrument: q.instrument, master, chain: q.lotSize }, 'short-straddle: chain and master lot sizes differ, using the master');
    return master;
  }

  private dayState(now: number, ctx: StrategyContext): SavedState {
    const day = istDate(now);
    if (this.s?.day !== day) {
      this.s = { day, phase: 'waiting', expiry: null, strike: null, legs: [] };
      ctx.state['straddle'] = this.s;
    }
    return this.s;
  }
}

function meanIv(a: LegGreeks | undefined, b: LegGreeks | undefined): number | undefined {
  return a && b ? (a.iv + b.iv) / 2 : undefined;
}

function describe(q: OptionQuote, g: LegGreeks | undefined): Record<string, string | number | undefined> {
  return {
    symbol: q.tradingSymbol,
    ltp: q.ltp === undefined ? undefined : formatRupees(q.ltp),
    iv: g?.iv,
    delta: g?.delta,
    theta: g?.theta,
    greeks: g?.source,
  };
}

export const shortStraddle = defineStrategy({
  name: 'short-straddle',
  description: 'Sells the at-the-money call and put of the nearest weekly expiry at a set time, with per-leg stop-losses and an exit time',
  params: shortStraddleParams,
  create: (p) => new ShortStraddle(p),
});

/** The stop trigger `percent` above a sold premium, rounded up to the tick. */
export function stopTrigger(price: number, percent: number, tick: Paise): Paise {
  return roundToTick(price * (1 + percent / 100), tick, Rounding.UP);
}
