/**
 * The one owner of a write whose answer was lost (timeout, reset, 5xx, garbled ack: the venue
 * answers `unknown`). Order writes carry no idempotency key, so such a write is never sent again
 * blindly: the order book, searched by our tag (`remarks`), says what the venue did. The broker
 * client only reports the loss; the schedule, the deadline and the resend rule are the policy's
 * (lost-answer-policy.ts), each look's reading is lost-answer-verdicts.ts.
 *
 *   write ──> answer lost (unknown)
 *               │  look after each delay of the policy: book records with the tag are merged,
 *               ▼  then read for the write's effect
 *   ┌──── done ─────────> placed / modified / cancelled: adopted as the answer
 *   ├──── refused ──────> finished without the change: not done (a refusal, as if answered)
 *   ├──── undecidable ──> the book cannot show it: left as the book has it (alert)
 *   └──── absent at every look, the last one read the book
 *            ├─ round 1, op in `resendOnce`, within `resendWithinMs` ──> sent ONCE more ──> round 2
 *            └─ otherwise ──> not done (a placement: REJECTED, ORDER_NOT_FOUND)
 *
 * A look that cannot read the book proves nothing: a round whose last look failed never resends.
 * Every verdict is published as a `lost-answer` event; the tag stays unsettled (its journal entry
 * kept) from the lost answer until the verdict.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus } from '../../core/enums.js';
import type { LostAnswerVerdict } from '../../core/events.js';
import type { Intent } from '../../core/intents.js';
import type { Logger } from '../../core/log.js';
import { isBrokerSquareOff } from '../../risk/rules/square-off.js';
import { bookVerdict, type BookVerdict } from './lost-answer-verdicts.js';
import type { LostAnswerPolicy } from './lost-answer-policy.js';
import type { OrderStateMachine } from './order-state-machine.js';
import { rootTag } from './tags.js';
import { isPlaceCall, type VenueCall } from './venue-call.js';
import { venueValue, type ExecutionVenue, type VenueOrderState, type WriteOutcome } from './venue.js';
import type { WriteTracker } from './write-tracker.js';

/** A write whose answer was lost, with what is needed to look for it and to send it again. */
export interface LostWrite {
  /** The order's tag in the state machine (a smart leg's own `<tag>.sl` / `<tag>.tg`). */
  readonly tag: string;
  readonly intent: Intent | undefined;
  readonly call: VenueCall;
  /** Why the answer is unknown (the venue's words). */
  readonly reason: string;
  /** 1: the first write; 2: the one resend. */
  readonly round: 1 | 2;
  /** When the first write's answer was lost (the resend's deadline runs from here). */
  readonly since: number;
}

/** The router's side: sending a write again, and taking a verdict as the write's answer. */
export interface LostAnswerRouter {
  /** Sends `w.call` again; its answer comes back through the router's outcome path with `round` 2. */
  resend(w: LostWrite): void;
  /** The book answered for the venue: handled as an `accepted` or `rejected` write outcome. */
  answered(w: LostWrite, outcome: WriteOutcome): void;
}

export interface LostAnswersOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly venue: ExecutionVenue;
  readonly orders: OrderStateMachine;
  readonly policy: LostAnswerPolicy;
  readonly tracker: WriteTracker;
  readonly router: LostAnswerRouter;
  readonly log: Logger;
}

const WHAT: Readonly<Record<VenueCall['op'], string>> = { place: 'place', placeSmart: 'smart-order place', modify: 'modify', modifySmart: 'smart-order modify', cancel: 'cancel', cancelSmart: 'smart-order cancel' };

export class LostAnswers {
  constructor(private readonly o: LostAnswersOptions) {}

  /** A write lost its answer: looks for it in the order book on the policy's schedule. */
  begin(w: LostWrite): void {
    this.o.tracker.hold(w.tag);
    this.o.log.warn({ tag: w.tag, op: w.call.op, round: w.round, reason: w.reason }, 'execution: write answer lost; reading the order book by tag (never a blind retry)');
    this.look(w, 0, false);
  }

  /** Look number `i` (0-based); `lastRead`: whether the previous look read the book. */
  private look(w: LostWrite, i: number, lastRead: boolean): void {
    const delays = this.o.policy.delaysMs;
    if (i >= delays.length) return this.exhausted(w, lastRead);
    this.o.tracker.begin();
    this.o.clock.setTimeout(() => {
      void venueValue(this.o.venue.orderBook())
        .then((book) => {
          const verdict = this.read(w, book);
          if (verdict.kind === 'absent') this.look(w, i + 1, true);
          else this.decide(w, verdict, i + 1);
        })
        .catch((err: unknown) => {
          this.o.log.warn({ err, tag: w.tag }, 'execution: order-book look after a lost answer failed; looking again');
          this.look(w, i + 1, false);
        })
        .finally(() => {
          this.o.tracker.end();
          this.o.tracker.checkIdle();
        });
    }, delays[i]!);
  }

  /** Merges the book's records of this tag, then reads the write's effect from them. */
  private read(w: LostWrite, book: readonly VenueOrderState[]): BookVerdict {
    const root = rootTag(w.tag);
    const parts = book.filter((s) => (s.tag === root || s.tag === w.tag) && !isBrokerSquareOff(s.tag));
    for (const s of parts) this.o.orders.applyState(s);
    if (isPlaceCall(w.call)) {
      // The stream may have linked the order meanwhile: that is as good as the book.
      const id = this.o.orders.getExact(w.tag)?.orderId;
      if (id !== undefined) return { kind: 'done', orderId: id };
    }
    return bookVerdict(w.call, parts);
  }

  private decide(w: LostWrite, v: Exclude<BookVerdict, { kind: 'absent' }>, looks: number): void {
    const what = WHAT[w.call.op];
    if (v.kind === 'done') {
      this.publish(w, 'done', looks, `${what} found done in the order book`, v.orderId);
      if (isPlaceCall(w.call)) this.o.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'reconciled', source: 'execution', detail: `order ${w.tag} found by tag after a lost answer` });
      this.o.router.answered(w, { status: 'accepted', orderId: v.orderId, ...(v.venueStatus !== undefined ? { venueStatus: v.venueStatus } : {}) });
    } else if (v.kind === 'refused') {
      this.publish(w, 'not-done', looks, v.reason);
      this.o.router.answered(w, { status: 'rejected', reason: `${what} answer lost; ${v.reason}` });
    } else {
      this.publish(w, 'undecided', looks, v.reason);
      this.o.bus.publish({ type: 'alert', ts: this.o.clock.now(), level: 'warn', code: 'WRITE_OUTCOME_UNKNOWN', message: `${what} of ${w.tag}: answer lost and ${v.reason}; the order stays as the venue shows it`, context: { tag: w.tag, op: w.call.op } });
    }
    this.o.tracker.release(w.tag);
  }

  /** Every look done and none found the write. */
  private exhausted(w: LostWrite, lastRead: boolean): void {
    const p = this.o.policy;
    const n = p.delaysMs.length;
    const what = WHAT[w.call.op];
    const inTime = this.o.clock.now() - w.since <= p.resendWithinMs;
    if (lastRead && w.round === 1 && inTime && p.resendOnce.includes(w.call.op)) {
      this.publish(w, 'resent', n, `${what}: the order book shows it never arrived after ${n} looks; sent once more`);
      // Resent before the tag is released: it stays unsettled throughout.
      this.o.router.resend({ ...w, round: 2 });
      this.o.tracker.release(w.tag);
      return;
    }
    const why = !lastRead ? 'the order book could not be read on the last look' : w.round === 2 ? 'the one resend was not found either' : !inTime ? 'past the resend deadline' : 'not resent by policy';
    if (isPlaceCall(w.call)) {
      const snap = this.o.orders.getExact(w.tag);
      if (snap && !snap.orderId && !isTerminalStatus(snap.status)) {
        this.o.orders.rejected(w.tag, `not found in the order book after ${n} lookups following a lost answer (${why}): treated as not placed`);
        this.o.bus.publish({ type: 'alert', ts: this.o.clock.now(), level: 'warn', code: 'ORDER_NOT_FOUND', message: `order ${w.tag}: answer lost and not in the order book; treated as not placed` });
      }
      this.publish(w, 'not-done', n, `not in the order book after ${n} looks (${why})`);
    } else if (lastRead) {
      const reason = `${what} answer lost and after ${n} looks the order book shows order ${w.call.req.orderId} without it (${why}): not applied`;
      this.publish(w, 'not-done', n, reason);
      this.o.router.answered(w, { status: 'rejected', reason });
    } else {
      this.publish(w, 'undecided', n, `the order book could not be read`);
      this.o.bus.publish({ type: 'alert', ts: this.o.clock.now(), level: 'warn', code: 'WRITE_OUTCOME_UNKNOWN', message: `${what} of ${w.tag}: answer lost and the order book could not be read; the next reconcile shows the order as the venue has it`, context: { tag: w.tag, op: w.call.op } });
    }
    this.o.tracker.release(w.tag);
  }

  private publish(w: LostWrite, verdict: LostAnswerVerdict, looks: number, reason: string, orderId?: string): void {
    this.o.bus.publish({ type: 'lost-answer', ts: this.o.clock.now(), tag: w.tag, op: w.call.op, verdict, looks, round: w.round, reason, ...(orderId !== undefined ? { orderId } : {}) });
  }
}
