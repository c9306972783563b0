/**
 * The broker as an ExecutionVenue (src/adapters/execution/venue.ts): live trading, and paper
 * trading against the simulator (same code, other URLs). Writes answer `accepted`, `rejected`
 * (the broker certainly did nothing: a 4xx refusal, a local validation failure) or `unknown` (the
 * answer was lost: the write may or may not have been carried out). Each write is sent once; what
 * an `unknown` write did is read from the order book by the execution layer (lost-answers.ts).
 */
import { defer, Subject, type Observable } from 'rxjs';
import type { Side } from '../../core/enums.js';
import { parseScripCode, type ParsedScrip } from '../../core/instruments.js';
import type {
  ExecutionVenue,
  MarginEstimate,
  MarginRequest,
  VenueCancelRequest,
  VenueCapabilities,
  VenueFill,
  VenueFunds,
  VenueModifyRequest,
  VenueOrderRequest,
  VenueOrderState,
  VenuePosition,
  VenueSmartCancelRequest,
  VenueSmartModifyRequest,
  VenueSmartOrderRequest,
  VenueUpdate,
  WriteOutcome,
} from '../execution/venue.js';
import { modifyChange } from '../execution/venue.js';
import type { Broker } from './broker.js';
import { BrokerError, InputException, NetworkException } from './errors.js';
import type { OrderAck, OrderSegment } from './schemas/orders.js';
import type { WriteAnswer } from './client.js';
import { fillFromTrade, legName, orderStateFromRecord, positionFromWire } from './venue-codec.js';

export const BROKER_CAPABILITIES: VenueCapabilities = {
  smartOrders: true,
  // Announced, not live (spec 3.4): the engine trails by modifying.
  trailingStop: false,
  maxModifications: 25,
  marginEstimate: true,
  synchronous: false,
};

/**
 * Orders remembered (instrument, tag, side, leg) for the stream's bare ids and partial updates. Far
 * above a day's orders; every order-book read refreshes the orders it lists (live smart orders).
 */
const MAX_KNOWN = 50_000;

interface Known {
  readonly orderId: string;
  readonly instrument: string;
  /** `remarks`: a smart order's legs carry the parent's tag. */
  readonly tag: string;
  readonly side?: Side;
  /** For a smart-order leg: which leg, and its parent's id (the stream does not say). */
  readonly leg?: 'stopLoss' | 'target';
  readonly parentOrderId?: string;
}

function scrip(instrument: string): ParsedScrip {
  const p = parseScripCode(instrument);
  if (!p) throw new InputException(`instrument ${JSON.stringify(instrument)} is not a scrip code like NSE_2885`, { field: 'instrument' });
  if (p.segment === 'INDEX') throw new InputException(`instrument ${instrument} is an index and cannot be traded`, { field: 'instrument' });
  return p;
}

function orderSegmentOf(p: ParsedScrip): OrderSegment {
  return p.segment === 'EQUITY' ? 'EQUITY' : 'DERIVATIVE';
}

function wireSegment(p: ParsedScrip): 'EQUITY' | 'FNO' {
  return p.segment === 'EQUITY' ? 'EQUITY' : 'FNO';
}

/** Maps a thrown error to a write outcome: refusals are `rejected`, lost answers `unknown`. */
export function outcomeOf(e: unknown): WriteOutcome {
  if (e instanceof NetworkException && e.context.write === true) return { status: 'unknown', reason: e.message };
  if (e instanceof BrokerError) return { status: 'rejected', reason: e.context.brokerMessage ?? e.message, errorCode: e.context.brokerCode ?? e.code };
  return { status: 'unknown', reason: e instanceof Error ? e.message : String(e) };
}

export class BrokerVenue implements ExecutionVenue {
  readonly name: string;
  readonly capabilities = BROKER_CAPABILITIES;
  private readonly known = new Map<string, Known>();
  /** Numeric part of an id -> full id, for the stream's bare numeric ids (wire-gaps). */
  private readonly byDigits = new Map<string, string>();
  private readonly subject = new Subject<VenueUpdate>();
  private streaming = false;

  readonly updates: Observable<VenueUpdate> = defer(() => {
    this.startStream();
    return this.subject;
  });

  constructor(
    private readonly broker: Broker,
    options: { name?: string } = {},
  ) {
    this.name = options.name ?? 'broker';
  }

  async place(req: VenueOrderRequest): Promise<WriteOutcome> {
    try {
      const p = scrip(req.instrument);
      const r = await this.broker.client.placeOrder({
        side: req.side,
        exchange: p.exchange,
        segment: wireSegment(p),
        securityId: p.securityId,
        qty: req.qty,
        orderType: req.orderType,
        ...(req.limitPrice !== undefined && req.orderType !== 'MARKET' ? { limitPrice: req.limitPrice } : {}),
        ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}),
        validity: req.validity,
        product: req.product,
        isAmo: req.isAmo,
        remarks: req.tag,
      });
      if (r.kind === 'unknown') return lost(r);
      this.remember({ orderId: r.ack.orderId, instrument: req.instrument, tag: req.tag, side: req.side });
      return accepted(r.ack);
    } catch (e) {
      return outcomeOf(e);
    }
  }

  modify(req: VenueModifyRequest): Promise<WriteOutcome> {
    return settle(() => this.broker.client.modifyOrder({ orderId: req.orderId, segment: orderSegmentOf(scrip(req.instrument)), ...modifyChange(req) }));
  }

  cancel(req: VenueCancelRequest): Promise<WriteOutcome> {
    return settle(() => this.broker.client.cancelOrder(req.orderId, orderSegmentOf(scrip(req.instrument))));
  }

  async placeSmart(req: VenueSmartOrderRequest): Promise<WriteOutcome> {
    try {
      const p = scrip(req.instrument);
      const r = await this.broker.client.placeSmartOrder({
        side: req.side,
        exchange: p.exchange,
        segment: wireSegment(p),
        securityId: p.securityId,
        qty: req.qty,
        orderType: req.entryType,
        validity: req.validity,
        product: req.product,
        ...(req.limitPrice !== undefined ? { limitPrice: req.limitPrice } : {}),
        ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}),
        ...(req.triggerLimitPrice !== undefined ? { triggerLimitPrice: req.triggerLimitPrice } : {}),
        ...(req.stopLoss ? { slTriggerPrice: req.stopLoss.triggerPrice, ...(req.stopLoss.limitPrice !== undefined ? { slLimitPrice: req.stopLoss.limitPrice } : {}) } : {}),
        ...(req.target ? { tgtTriggerPrice: req.target.triggerPrice, ...(req.target.limitPrice !== undefined ? { tgtLimitPrice: req.target.limitPrice } : {}) } : {}),
        remarks: req.tag,
      });
      if (r.kind === 'unknown') return lost(r);
      const parent = r.ack[0];
      if (!parent) return { status: 'unknown', reason: 'POST /smart/order answered without order_data' };
      const children = r.ack.flatMap((o) => o.children);
      const wanted: Array<'stopLoss' | 'target'> = [...(req.stopLoss ? (['stopLoss'] as const) : []), ...(req.target ? (['target'] as const) : [])];
      const legs: { stopLoss?: string; target?: string } = {};
      children.forEach((c, i) => {
        const name = legName((c as { leg?: string }).leg) ?? wanted[i];
        if (name === 'stopLoss' || name === 'target') legs[name] = c.orderId;
      });
      this.remember({ orderId: parent.orderId, instrument: req.instrument, tag: req.tag, side: req.side });
      // Each leg is its own order (opposite side, own id): remembered as a leg of the parent, so
      // its later stream updates and trades can say so.
      const legSide: Side = req.side === 'BUY' ? 'SELL' : 'BUY';
      for (const leg of ['stopLoss', 'target'] as const) {
        const id = legs[leg];
        if (id) this.remember({ orderId: id, instrument: req.instrument, tag: req.tag, side: legSide, leg, parentOrderId: parent.orderId });
      }
      return { status: 'accepted', orderId: parent.orderId, venueStatus: parent.venueStatus, ...(legs.stopLoss || legs.target ? { legs } : {}) };
    } catch (e) {
      return outcomeOf(e);
    }
  }

  modifySmart(req: VenueSmartModifyRequest): Promise<WriteOutcome> {
    return settle(() => {
      const p = scrip(req.instrument);
      return this.broker.client.modifySmartOrder({ orderId: req.orderId, segment: orderSegmentOf(p), exchange: p.exchange, ...modifyChange(req) });
    });
  }

  cancelSmart(req: VenueSmartCancelRequest): Promise<WriteOutcome> {
    return settle(() => this.broker.client.cancelSmartOrder(req.orderId, orderSegmentOf(scrip(req.instrument))));
  }

  async orderBook(): Promise<readonly VenueOrderState[]> {
    const now = this.broker.clock.now();
    const out: VenueOrderState[] = [];
    for (const r of await this.broker.client.orderBook()) {
      try {
        const s = orderStateFromRecord(r, now);
        if (s.instrument && s.tag) {
          const leg = s.leg === 'stopLoss' || s.leg === 'target' ? { leg: s.leg, ...(s.parentOrderId !== undefined ? { parentOrderId: s.parentOrderId } : {}) } : {};
          this.remember({ orderId: s.orderId, instrument: s.instrument, tag: s.tag, ...(s.side ? { side: s.side } : {}), ...leg });
        }
        out.push(s);
      } catch (e) {
        // Visible, not silent: one unreadable record must not hide the rest of the book.
        this.broker.logger.error({ err: e, orderId: r.orderId }, 'order-book record skipped');
      }
    }
    return out;
  }

  async trades(id?: string): Promise<readonly VenueFill[]> {
    // A bare id from the terse stream reads the trades of the full id it stands for.
    const orderId = id === undefined ? undefined : this.resolveOrderId(id);
    const now = this.broker.clock.now();
    const known = orderId ? this.known.get(orderId) : undefined;
    const p = known ? parseScripCode(known.instrument) : undefined;
    const raw = orderId && p ? await this.broker.client.trades(orderId, orderSegmentOf(p)) : await this.broker.client.tradeBook();
    const fills: VenueFill[] = [];
    for (const t of raw) {
      const k = this.known.get(t.orderId ?? '') ?? known;
      if (orderId && (t.orderId ?? orderId) !== orderId) continue;
      const f = fillFromTrade(t, k ? { orderId: k.orderId, instrument: k.instrument, tag: k.tag, ...(k.side ? { side: k.side } : {}) } : undefined, now);
      if (f) fills.push(f);
      else this.broker.logger.warn({ fillId: t.fillId }, 'trade without order, instrument, side or price skipped');
    }
    return fills;
  }

  async positions(): Promise<readonly VenuePosition[]> {
    const now = this.broker.clock.now();
    return (await this.broker.client.positions()).flatMap((p) => positionFromWire(p, now) ?? []);
  }

  async funds(): Promise<VenueFunds> {
    const f = await this.broker.client.funds();
    const available = f.available['eq_cnc'] ?? f.withdrawalBalance;
    return {
      available: Math.round(available * 100),
      realizedPnl: Math.round(f.realizedPnl * 100),
      unrealizedPnl: Math.round(f.unrealizedPnl * 100),
      // Spec 2.2: brokerage, eq_charges and fno_charges, each accrued for the day.
      charges: Math.round((f.brokerage + f.eqCharges + f.fnoCharges) * 100),
      ts: this.broker.clock.now(),
    };
  }

  async margin(req: MarginRequest): Promise<MarginEstimate> {
    const p = scrip(req.instrument);
    const m = await this.broker.client.margin({ segment: orderSegmentOf(p), exchange: p.exchange, securityId: p.securityId, side: req.side, qty: req.qty, price: req.price, product: req.product });
    const charges = m.charges['total_charges'];
    return {
      required: Math.round(m.totalMargin * 100),
      ...(m.availableBalance !== undefined ? { available: Math.round(m.availableBalance * 100) } : {}),
      ...(charges !== undefined ? { charges: Math.round(charges * 100) } : {}),
    };
  }

  /** Full id for a bare numeric id seen on the stream (`123` -> `DRV-123`). */
  resolveOrderId(raw: string): string {
    if (this.known.has(raw) || !/^\d+$/.test(raw)) return raw;
    return this.byDigits.get(raw) ?? raw;
  }

  async close(): Promise<void> {
    this.subject.complete();
  }

  private remember(k: Known): void {
    // Re-inserted, so the ids seen last (placed, or listed by the latest book read) are the newest.
    this.known.delete(k.orderId);
    this.known.set(k.orderId, k);
    const digits = /(\d+)$/.exec(k.orderId)?.[1];
    if (digits && digits !== k.orderId) this.byDigits.set(digits, k.orderId);
    if (this.known.size > MAX_KNOWN) this.forgetOldest();
  }

  /** Bounded memory over days of running: the id neither placed nor listed for longest goes. */
  private forgetOldest(): void {
    const oldest = this.known.keys().next().value;
    if (oldest === undefined) return;
    this.known.delete(oldest);
    const digits = /(\d+)$/.exec(oldest)?.[1];
    if (digits && this.byDigits.get(digits) === oldest) this.byDigits.delete(digits);
  }

  private startStream(): void {
    if (this.streaming) return;
    this.streaming = true;
    const stream = this.broker.orderUpdates({
      fetchOrders: () => this.orderBook(),
      fetchPositions: () => this.positions(),
      resolveOrderId: (raw) => this.resolveOrderId(raw),
    });
    stream.updates$.subscribe({ next: (u) => this.subject.next(this.withLeg(u)) });
  }

  /**
   * The stream reports a smart-order leg under its own id with the parent's `remarks` and no leg
   * name: a leg we know says which it is, so the engine never takes it for the parent. (A leg
   * seen before the placement answer is not known yet; the engine parks such updates itself.)
   */
  private withLeg(u: VenueUpdate): VenueUpdate {
    if (u.kind !== 'order' || u.order.leg !== undefined) return u;
    const k = this.known.get(u.order.orderId);
    if (!k?.leg) return u;
    return { kind: 'order', order: { ...u.order, leg: k.leg, ...(k.parentOrderId !== undefined ? { parentOrderId: k.parentOrderId } : {}), ...(u.order.side === undefined && k.side ? { side: k.side } : {}) } };
  }
}

function accepted(r: OrderAck): WriteOutcome {
  return { status: 'accepted', orderId: r.orderId, venueStatus: r.venueStatus };
}

function lost(r: Extract<WriteAnswer<unknown>, { kind: 'unknown' }>): WriteOutcome {
  return { status: 'unknown', reason: r.reason };
}

/** A write whose answer is a plain ack: `accepted`, `unknown` when it was lost, or what a thrown error means (outcomeOf). */
async function settle(send: () => Promise<WriteAnswer<OrderAck>>): Promise<WriteOutcome> {
  try {
    const r = await send();
    return r.kind === 'answered' ? accepted(r.ack) : lost(r);
  } catch (e) {
    return outcomeOf(e);
  }
}
