/**
 * An in-process venue that records every write and answers as told: for unit tests of strategies
 * and of the engine, and for the latency bench. It is not a market: it fills only when told
 * (`fill`), or at once at a price given by `autoFill` (e.g. the last price for MARKET orders).
 * Synchronous by default; `async: true` answers with promises like a network venue.
 */
import { Subject } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus, type OrderStatus } from '../../core/enums.js';
import type { Paise } from '../../core/money.js';
import type {
  ExecutionVenue,
  VenueCancelRequest,
  VenueCapabilities,
  VenueFill,
  VenueFunds,
  VenueModifyRequest,
  VenueOrderRequest,
  VenueOrderState,
  VenuePosition,
  VenueResult,
  VenueSmartCancelRequest,
  VenueSmartModifyRequest,
  VenueSmartOrderRequest,
  VenueUpdate,
  WriteOutcome,
} from './venue.js';
import { modifyChange } from './venue.js';

export type RecordedWrite =
  | { readonly kind: 'place'; readonly req: VenueOrderRequest; readonly at: bigint }
  | { readonly kind: 'modify'; readonly req: VenueModifyRequest; readonly at: bigint }
  | { readonly kind: 'cancel'; readonly req: VenueCancelRequest; readonly at: bigint }
  | { readonly kind: 'placeSmart'; readonly req: VenueSmartOrderRequest; readonly at: bigint }
  | { readonly kind: 'modifySmart'; readonly req: VenueSmartModifyRequest; readonly at: bigint }
  | { readonly kind: 'cancelSmart'; readonly req: VenueSmartCancelRequest; readonly at: bigint };

export interface RecordingVenueOptions {
  readonly clock: Clock;
  readonly capabilities?: Partial<VenueCapabilities>;
  /** Answer with promises (a network venue) instead of values. */
  readonly async?: boolean;
  /** Decides each write's outcome; default: accept. Return `undefined` for the default. */
  readonly answer?: (w: RecordedWrite) => WriteOutcome | undefined;
  /** Fill a new regular order at once at this price (undefined: leave it working). */
  readonly autoFill?: (req: VenueOrderRequest) => Paise | undefined;
  /** Available funds, paise (default 1 crore rupees). */
  readonly funds?: Paise;
  /** Keep `at` timestamps off (saves a syscall per write). */
  readonly record?: boolean;
}

interface Book {
  state: VenueOrderState;
}

export class RecordingVenue implements ExecutionVenue {
  readonly name = 'recording';
  readonly capabilities: VenueCapabilities;
  readonly writes: RecordedWrite[] = [];
  private readonly subject = new Subject<VenueUpdate>();
  readonly updates = this.subject.asObservable();
  private readonly book = new Map<string, Book>();
  private readonly fills: VenueFill[] = [];
  private nextId = 1;
  private nextFill = 1;
  availableFunds: Paise;

  constructor(private readonly options: RecordingVenueOptions) {
    this.capabilities = {
      smartOrders: true,
      trailingStop: false,
      maxModifications: 25,
      marginEstimate: false,
      synchronous: !options.async,
      ...options.capabilities,
    };
    this.availableFunds = options.funds ?? 1_000_000_000;
  }

  place(req: VenueOrderRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'place', req, at: this.now() });
    const out = this.options.answer?.(w) ?? this.accept(req.tag, {
      instrument: req.instrument, side: req.side, qty: req.qty, orderType: req.orderType, product: req.product, validity: req.validity,
      ...(req.limitPrice !== undefined ? { limitPrice: req.limitPrice } : {}),
      ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}),
    });
    if (out.status === 'accepted') {
      const px = this.options.autoFill?.(req);
      if (px !== undefined) {
        const id = out.orderId;
        // Synchronous: the fill is emitted inside place(), before its answer (the engine matches it by
        // tag); asynchronous: after the answer, as a network venue's stream would.
        queueMicrotaskOrNow(this.capabilities.synchronous, () => this.fill(id, req.qty, px));
      }
    }
    return this.reply(out);
  }

  modify(req: VenueModifyRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'modify', req, at: this.now() });
    const out = this.options.answer?.(w) ?? { status: 'accepted' as const, orderId: req.orderId, venueStatus: 'MODIFIED' };
    if (out.status === 'accepted') this.patch(req.orderId, modifyChange(req));
    return this.reply(out);
  }

  cancel(req: VenueCancelRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'cancel', req, at: this.now() });
    const out = this.options.answer?.(w) ?? { status: 'accepted' as const, orderId: req.orderId, venueStatus: 'CANCELLED' };
    if (out.status === 'accepted') this.patch(req.orderId, { status: 'CANCELLED' });
    return this.reply(out);
  }

  placeSmart(req: VenueSmartOrderRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'placeSmart', req, at: this.now() });
    let out = this.options.answer?.(w);
    if (!out) {
      const orderType = req.entryType === 'TRIGGER' ? 'STOP_LOSS' : req.entryType;
      const parent = this.accept(req.tag, { instrument: req.instrument, side: req.side, qty: req.qty, orderType, product: req.product, validity: req.validity, leg: 'entry' });
      const legs: { stopLoss?: string; target?: string } = {};
      const opp = req.side === 'BUY' ? 'SELL' : 'BUY';
      if (req.stopLoss) legs.stopLoss = (this.accept(req.tag, { instrument: req.instrument, side: opp, qty: req.qty, orderType: 'STOP_LOSS', triggerPrice: req.stopLoss.triggerPrice, product: req.product, leg: 'stopLoss', parentOrderId: parent.orderId, status: 'TRIGGER_PENDING' }) as { orderId: string }).orderId;
      if (req.target) legs.target = (this.accept(req.tag, { instrument: req.instrument, side: opp, qty: req.qty, orderType: 'LIMIT', limitPrice: req.target.limitPrice ?? req.target.triggerPrice, product: req.product, leg: 'target', parentOrderId: parent.orderId }) as { orderId: string }).orderId;
      out = { ...parent, legs };
    }
    return this.reply(out);
  }

  modifySmart(req: VenueSmartModifyRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'modifySmart', req, at: this.now() });
    const out = this.options.answer?.(w) ?? { status: 'accepted' as const, orderId: req.orderId };
    if (out.status === 'accepted') this.patch(req.orderId, { ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}), ...(req.limitPrice !== undefined ? { limitPrice: req.limitPrice } : {}) });
    return this.reply(out);
  }

  cancelSmart(req: VenueSmartCancelRequest): VenueResult<WriteOutcome> {
    const w = this.record({ kind: 'cancelSmart', req, at: this.now() });
    const out = this.options.answer?.(w) ?? { status: 'accepted' as const, orderId: req.orderId };
    if (out.status === 'accepted') this.patch(req.orderId, { status: 'CANCELLED' });
    return this.reply(out);
  }

  orderBook(): VenueResult<readonly VenueOrderState[]> {
    return this.reply([...this.book.values()].map((b) => b.state));
  }

  trades(orderId?: string): VenueResult<readonly VenueFill[]> {
    return this.reply(orderId === undefined ? [...this.fills] : this.fills.filter((f) => f.orderId === orderId));
  }

  positions(): VenueResult<readonly VenuePosition[]> {
    return this.reply([]);
  }

  funds(): VenueResult<VenueFunds> {
    return this.reply({ available: this.availableFunds, ts: this.options.clock.now() });
  }

  /** Pushes an update on the stream, as the venue's WebSocket would. */
  emit(u: VenueUpdate): void {
    this.subject.next(u);
  }

  /** Fills `qty` of an order at `price`: emits the fill and the order's new state. */
  fill(orderId: string, qty: number, price: Paise): VenueFill {
    const b = this.book.get(orderId);
    if (!b) throw new RangeError(`RecordingVenue: no order ${orderId}`);
    const s = b.state;
    const filled = (s.filledQty ?? 0) + qty;
    const value = (s.avgPrice ?? 0) * (s.filledQty ?? 0) + qty * price;
    const f: VenueFill = { fillId: `F${this.nextFill++}`, orderId, ...(s.tag ? { tag: s.tag } : {}), instrument: s.instrument!, side: s.side!, qty, price, ts: this.options.clock.now() };
    this.fills.push(f);
    const status: OrderStatus = filled >= (s.qty ?? 0) ? 'FILLED' : 'PARTIALLY_FILLED';
    b.state = Object.assign({}, s, { filledQty: filled, avgPrice: value / filled, status, ts: this.options.clock.now() });
    this.emit({ kind: 'fill', fill: f });
    this.emit({ kind: 'order', order: b.state });
    return f;
  }

  /** The venue's record of an order. */
  order(orderId: string): VenueOrderState | undefined {
    return this.book.get(orderId)?.state;
  }

  /**
   * A new trading day, as a broker's day book rolls: finished orders and the day's trades leave the
   * book and the trade book; working orders (a smart order lives up to a year) stay.
   */
  newDay(): void {
    for (const [id, b] of this.book) if (isTerminalStatus(b.state.status)) this.book.delete(id);
    this.fills.length = 0;
  }

  /** Adds an order to the book without any write (a write whose answer was lost, a foreign order). */
  seed(state: VenueOrderState): void {
    this.book.set(state.orderId, { state });
  }

  writesOf<K extends RecordedWrite['kind']>(kind: K): Array<Extract<RecordedWrite, { kind: K }>> {
    return this.writes.filter((w): w is Extract<RecordedWrite, { kind: K }> => w.kind === kind);
  }

  private accept(tag: string, s: Omit<VenueOrderState, 'orderId' | 'status' | 'ts'> & { status?: OrderStatus }): Extract<WriteOutcome, { status: 'accepted' }> {
    const orderId = `V-${this.nextId++}`;
    const state: VenueOrderState = Object.assign({ status: s.orderType === 'STOP_LOSS' ? ('TRIGGER_PENDING' as const) : ('OPEN' as const) }, s, { orderId, tag, filledQty: 0, ts: this.options.clock.now() });
    this.book.set(orderId, { state });
    return { status: 'accepted', orderId, venueStatus: 'O-PENDING' };
  }

  private patch(orderId: string, change: Partial<VenueOrderState>): void {
    const b = this.book.get(orderId);
    if (b) b.state = Object.assign({}, b.state, change, { ts: this.options.clock.now() });
  }

  private record(w: RecordedWrite): RecordedWrite {
    this.writes.push(w);
    return w;
  }

  private now(): bigint {
    return this.options.record === false ? 0n : process.hrtime.bigint();
  }

  private reply<T>(v: T): VenueResult<T> {
    return this.capabilities.synchronous ? v : Promise.resolve(v);
  }
}

function queueMicrotaskOrNow(sync: boolean, fn: () => void): void {
  if (sync) fn();
  else queueMicrotask(fn);
}
