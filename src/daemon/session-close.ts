/**
 * "Session end means closed." A flatten at the session end or from `tarang ctl flatten` sets the
 * trading state to reducing (no new entries; exits and reducing orders pass) so strategies cannot
 * walk straight back in and leave an INTRADAY position overnight. It lasts until the next session
 * opens or an operator resumes. The time it lasts until is kept in the store (`risk:closedUntil`),
 * so a daemon restarted during the night stays closed, and one started in the next session opens.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import type { Engine } from '../engine/engine.js';
import { formatIst, istDateTime, istDate } from '../core/time.js';

const NS = 'risk';
const KEY = 'closedUntil';

/** The next session open strictly after `ts` (a daemon without a calendar: 09:15 IST the next day). */
export type NextSessionOpen = (ts: number) => number;

export const nextDayOpen: NextSessionOpen = (ts) => istDateTime(istDate(ts + 86_400_000), '09:15');

export class SessionClose {
  private timer: TimerHandle | undefined;

  constructor(
    private readonly o: { readonly clock: Clock; readonly store: Store; readonly log: Logger; readonly nextOpen: NextSessionOpen },
  ) {}

  /** Closes trading for the rest of the session (reducing); an operator's halt is left as it is. */
  async close(engine: Engine, why: string): Promise<void> {
    const until = this.o.nextOpen(this.o.clock.now());
    if (engine.tradingState() === 'active') engine.setTradingState('reducing', `${why}: no new entries until the next session (${formatIst(until)} IST) or tarang ctl resume`);
    if (engine.tradingState() !== 'reducing') return;
    await this.o.store.set(NS, KEY, until).catch((err: unknown) => this.o.log.error({ err }, 'daemon: could not persist the session close'));
    this.schedule(engine, until);
  }

  /** At start: a close that has run out opens trading; one still in force keeps its timer. */
  async restore(engine: Engine): Promise<void> {
    const until = await this.o.store.get<number>(NS, KEY);
    if (typeof until !== 'number') return;
    if (engine.tradingState() !== 'reducing') return void (await this.clear());
    this.schedule(engine, until);
  }

  /** An operator resumed: the close is over. */
  async clear(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.o.store.delete(NS, KEY).catch((err: unknown) => this.o.log.error({ err }, 'daemon: could not clear the session close'));
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(engine: Engine, until: number): void {
    this.timer?.cancel();
    const open = (): void => {
      this.timer = undefined;
      // Only the close reopens: a halt (kill switch, operator) in the meantime stays.
      if (engine.tradingState() === 'reducing') engine.setTradingState('active', 'the next session opened after the session-end close');
      void this.clear();
    };
    const wait = until - this.o.clock.now();
    if (wait <= 0) return open();
    this.timer = this.o.clock.setTimeout(open, wait);
  }
}
