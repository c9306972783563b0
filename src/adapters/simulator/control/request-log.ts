/** The recent-request log behind `GET /sim/requests`: a fixed-size ring, newest last. */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ip: string;
  /** Simulator clock, epoch ms, when the answer was sent (or the call was dropped). */
  readonly ts: number;
}

export class RequestLog {
  private readonly ring: (RequestLogEntry | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = 1000) {
    if (!Number.isSafeInteger(capacity) || capacity <= 0) throw new RangeError(`RequestLog: capacity must be a positive integer, got ${capacity}`);
    this.ring = new Array<RequestLogEntry | undefined>(capacity);
  }

  add(entry: RequestLogEntry): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit = this.capacity): RequestLogEntry[] {
    const n = Math.min(limit, this.count);
    const out: RequestLogEntry[] = [];
    for (let i = n; i > 0; i--) {
      const e = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (e) out.push(e);
    }
    return out;
  }
}
