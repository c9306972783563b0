/**
 * Runs the simulated market through the trading calendar: opens the matching engine's session at
 * each session open, plays the market model's ticks into the engine (and to `onTick`, e.g. the
 * WebSocket fan-out), squares INTRADAY positions off at each segment's square-off time (the
 * broker's RMS, risk/rules/square-off.ts), expires DAY orders at the close, and rolls the model to
 * the next session.
 * The simulator's server calls `pump(clock.now())` on a timer; everything happens in time order
 * and nothing depends on how often it is called.
 */
import type { Session } from '../../../core/calendar.js';
import type { MatchingEngine } from '../matching/matching-engine.js';
import { squareOffsIn, type SquareOffSegment } from '../../../risk/rules/square-off.js';
import type { MarketModel } from './market-model.js';
import type { MarketTick } from './types.js';

export interface SessionCalendar {
  /** The session in progress at `ts`, else the next one to open after it (core `MarketCalendar`). */
  currentOrNextSession(ts: number): Session;
}

export interface MarketSessionDriverOptions {
  readonly model: MarketModel;
  readonly engine: MatchingEngine;
  readonly calendar: SessionCalendar;
  /** Every tick, after the engine has matched on it. */
  readonly onTick?: (tick: MarketTick) => void;
  /** Session opens and closes, after the engine has handled them. */
  readonly onSession?: (event: { readonly phase: 'open' | 'close' | 'square-off'; readonly session: Session; readonly segment?: SquareOffSegment }) => void;
}

export class MarketSessionDriver {
  private session: Session;
  private open: boolean;
  private readonly deliver: (tick: MarketTick) => void;

  /**
   * The model must have been built with `sessionOpen` at the open of the calendar's session for
   * its start time (in progress or next); build the engine with `sessionOpen: false` unless that
   * session is already in progress.
   */
  constructor(private readonly options: MarketSessionDriverOptions) {
    const { model, engine, calendar, onTick } = options;
    this.session = calendar.currentOrNextSession(model.currentSessionOpen);
    if (this.session.open !== model.currentSessionOpen) {
      throw new RangeError(
        `MarketSessionDriver: the market model opens at ${model.currentSessionOpen} but the calendar's session opens at ${this.session.open}`,
      );
    }
    this.open = engine.isSessionOpen();
    this.deliver = (tick) => {
      engine.onMarket(tick);
      onTick?.(tick);
    };
  }

  /** The session being played (or about to open). */
  get currentSession(): Session {
    return this.session;
  }

  /** Plays everything due up to `now`: session opens and closes, and ticks in between. */
  pump(now: number): void {
    const { model, engine, calendar, onSession } = this.options;
    for (;;) {
      const s = this.session;
      // A session wholly in the past is still played (open, ticks, close): the outcome must not
      // depend on how often pump is called.
      if (!this.open && now >= s.open) {
        engine.openSession(s.open);
        this.open = true;
        onSession?.({ phase: 'open', session: s });
      }
      if (this.open) {
        // The square-offs inside the session, in time order: ticks up to each, then the square-off.
        for (const { segment, at } of squareOffsIn(engine.squareOffTimes, s.open, s.close)) {
          if (engine.isSquaredOff(segment)) continue;
          model.advanceEach(Math.min(now, at - 1), this.deliver);
          if (now < at) return;
          engine.squareOff(segment, at);
          onSession?.({ phase: 'square-off', session: s, segment });
        }
        model.advanceEach(Math.min(now, s.close - 1), this.deliver);
      }
      if (now < s.close) return;
      if (this.open) {
        engine.expireSession(s.close);
        this.open = false;
        onSession?.({ phase: 'close', session: s });
      }
      const next = calendar.currentOrNextSession(s.close);
      model.startSession(next.open, next.close - next.open);
      this.session = next;
    }
  }

}
