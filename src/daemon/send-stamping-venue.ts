/**
 * The broker venue, told to the daemon's latency timing when each new order is handed to it: the
 * end of a tick-to-order sample is the moment the order goes to the HTTP client (whose request is
 * written to the socket within the same run of promise callbacks: the rate limiter grants an order
 * under budget synchronously, and the token is held), not the moment the engine decided it, which
 * is before the journal write and before the rest of a burst of ticks was handled.
 *
 * Every call is passed through unchanged; only `place` and `placeSmart` say the tag first.
 */
import type { Observable } from 'rxjs';
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
  VenueResult,
  VenueSmartCancelRequest,
  VenueSmartModifyRequest,
  VenueSmartOrderRequest,
  VenueUpdate,
  WriteOutcome,
} from '../adapters/execution/venue.js';

export class SendStampingVenue implements ExecutionVenue {
  readonly margin?: (req: MarginRequest) => VenueResult<MarginEstimate>;

  constructor(
    private readonly inner: ExecutionVenue,
    private readonly onSend: (tag: string) => void,
  ) {
    const margin = inner.margin;
    if (margin) this.margin = (req) => margin.call(inner, req);
  }

  get name(): string {
    return this.inner.name;
  }

  get capabilities(): VenueCapabilities {
    return this.inner.capabilities;
  }

  get updates(): Observable<VenueUpdate> {
    return this.inner.updates;
  }

  place(req: VenueOrderRequest): VenueResult<WriteOutcome> {
    this.onSend(req.tag);
    return this.inner.place(req);
  }

  placeSmart(req: VenueSmartOrderRequest): VenueResult<WriteOutcome> {
    this.onSend(req.tag);
    return this.inner.placeSmart(req);
  }

  modify(req: VenueModifyRequest): VenueResult<WriteOutcome> {
    return this.inner.modify(req);
  }

  cancel(req: VenueCancelRequest): VenueResult<WriteOutcome> {
    return this.inner.cancel(req);
  }

  modifySmart(req: VenueSmartModifyRequest): VenueResult<WriteOutcome> {
    return this.inner.modifySmart(req);
  }

  cancelSmart(req: VenueSmartCancelRequest): VenueResult<WriteOutcome> {
    return this.inner.cancelSmart(req);
  }

  orderBook(): VenueResult<readonly VenueOrderState[]> {
    return this.inner.orderBook();
  }

  trades(orderId?: string): VenueResult<readonly VenueFill[]> {
    return this.inner.trades(orderId);
  }

  positions(): VenueResult<readonly VenuePosition[]> {
    return this.inner.positions();
  }

  funds(): VenueResult<VenueFunds> {
    return this.inner.funds();
  }
}
