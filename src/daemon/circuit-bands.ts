/**
 * Feeds the risk layer's circuit check (src/risk/checks/circuit.ts) with each subscribed
 * instrument's price band, read from full quotes (`upper_circuit`/`lower_circuit`, spec 2.4). Bands
 * are fetched once at start, for instruments added later (option legs) as they are added, and again
 * every `refreshMs` of clock time (exchanges revise bands during the day). A quote without a band
 * clears the instrument's band, so a stale one is never enforced. Runs on clock timers, off the
 * tick path; a failed fetch is logged and retried at the next refresh. Backtests do not use this.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Paise } from '../core/money.js';
import type { CircuitBand } from '../risk/types.js';

export const DEFAULT_CIRCUIT_REFRESH_MS = 15 * 60_000;

export interface QuoteBand {
  readonly upperCircuit?: Paise | undefined;
  readonly lowerCircuit?: Paise | undefined;
}

export interface CircuitBandsOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** Full quotes by scrip code (batched by the caller's client). */
  readonly quotes: (codes: readonly string[]) => Promise<Readonly<Record<string, QuoteBand>>>;
  readonly setCircuit: (instrument: string, band: CircuitBand | undefined) => void;
  readonly refreshMs?: number;
}

export class CircuitBands {
  private readonly o: CircuitBandsOptions;
  private readonly instruments = new Set<string>();
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** Instruments with a band set now. */
  readonly known = new Map<string, CircuitBand>();

  constructor(o: CircuitBandsOptions) {
    if (o.refreshMs !== undefined && !(o.refreshMs >= 1_000)) throw new RangeError(`circuit bands: refreshMs must be at least 1000, got ${o.refreshMs}`);
    this.o = o;
  }

  /** Loads the bands of `instruments`, then refreshes all on the clock. Resolves after the first load. */
  async start(instruments: readonly string[]): Promise<void> {
    for (const i of instruments) this.instruments.add(i);
    await this.load([...this.instruments]);
    this.schedule();
  }

  /** More instruments (e.g. option legs just subscribed): their bands are fetched now. */
  add(instruments: readonly string[]): void {
    const fresh = instruments.filter((i) => !this.instruments.has(i));
    if (fresh.length === 0) return;
    for (const i of fresh) this.instruments.add(i);
    void this.load(fresh);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.o.clock.setTimeout(() => {
      void this.load([...this.instruments]).finally(() => this.schedule());
    }, this.o.refreshMs ?? DEFAULT_CIRCUIT_REFRESH_MS);
  }

  private async load(codes: readonly string[]): Promise<void> {
    if (codes.length === 0 || this.stopped) return;
    try {
      const quotes = await this.o.quotes(codes);
      let set = 0;
      for (const code of codes) {
        const q = quotes[code];
        if (!q) continue;
        const band = q.upperCircuit !== undefined && q.lowerCircuit !== undefined && q.upperCircuit > 0 && q.lowerCircuit <= q.upperCircuit ? { lower: q.lowerCircuit, upper: q.upperCircuit } : undefined;
        this.o.setCircuit(code, band);
        if (band) {
          this.known.set(code, band);
          set++;
        } else this.known.delete(code);
      }
      this.o.log.debug({ instruments: codes.length, bands: set }, 'circuit bands loaded');
    } catch (e) {
      this.o.log.warn({ instruments: codes.length, err: describeError(e) }, 'circuit bands: quotes unavailable; the circuit check keeps the bands it had, retrying at the next refresh');
    }
  }
}
