/**
 * Test harness: a simulator on loopback on a VirtualClock (Friday 2026-11-20, 10:00 IST, market
 * open), a small universe and slow ticks so clock jumps stay cheap, and a keep-alive HTTP client.
 */
import { Agent, request, type Dispatcher } from 'undici';
import WebSocket from 'ws';
import { VirtualClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import { istDateTime } from '../../../../src/core/time.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../../src/adapters/simulator/index.js';
import { WAIT_MS } from '../../../support/wait.js';

export const T0 = istDateTime('2026-11-20', '10:00');

/** The wire body of a 1-share INTRADAY MARKET order in RELIANCE (NSE 2885), tagged with `remarks`. */
export function marketOrderBody(remarks: string, side: 'BUY' | 'SELL' = 'BUY'): Record<string, unknown> {
  return {
    txn_type: side,
    exchange: 'NSE',
    segment: 'EQUITY',
    security_id: '2885',
    qty: 1,
    order_type: 'MARKET',
    validity: 'DAY',
    product: 'INTRADAY',
    is_amo: false,
    algo_id: '99999',
    remarks,
  };
}

export interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: T;
  readonly text: string;
}

export interface Harness {
  readonly sim: RunningSimulator;
  readonly clock: VirtualClock;
  readonly token: string;
  call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, opts?: CallOptions): Promise<Answer<T>>;
  admin<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer<T>>;
  ws(token?: string): Promise<WsClient>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** Access token; default the dashboard token; null sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
  /** Abort after this many wall ms. */
  timeoutMs?: number;
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const clock = new VirtualClock(T0);
  const sim = await startSimulator({
    clock,
    logger: silentLogger(),
    // Slow ticks and a coarse pump keep clock jumps of a day cheap; /sim/prices moves a price at once.
    venue: { tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000 },
    ...options,
  });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const sockets = new Set<WsClient>();

  async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? sim.credentials.access_token : opts.token;
    if (token !== null) headers['authorization'] = token;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${sim.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      dispatcher: opts.dispatcher ?? agent,
      ...(opts.timeoutMs !== undefined ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* CSV and other text answers stay text */
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
  }

  return {
    sim,
    clock,
    token: sim.credentials.access_token,
    call,
    admin: (method, path, body) => call(method, path, { token: null, headers: { 'x-sim-admin': sim.credentials.admin_key }, ...(body !== undefined ? { body } : {}) }),
    async ws(token = sim.credentials.access_token) {
      const c = await WsClient.open(sim.wsUrl, token);
      sockets.add(c);
      return c;
    },
    async close() {
      for (const s of sockets) s.ws.terminate();
      await agent.close();
      await sim.close();
    },
  };
}

/** A WebSocket client that keeps every message and can wait for one that matches. */
export class WsClient {
  readonly messages: unknown[] = [];
  readonly raw: string[] = [];
  private waiters: { pred: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      let m: unknown;
      try {
        m = JSON.parse(text);
      } catch {
        m = text;
      }
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(m)) return true;
        w.resolve(m);
        return false;
      });
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  static open(url: string, token: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: token } });
      const c = new WsClient(ws);
      ws.once('open', () => resolve(c));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => reject(Object.assign(new Error(`handshake refused: ${res.statusCode}`), { status: res.statusCode, body })));
      });
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  next<T = Record<string, unknown>>(pred: (m: Record<string, unknown>) => boolean, timeoutMs = WAIT_MS): Promise<T> {
    const p = (m: unknown): boolean => typeof m === 'object' && m !== null && pred(m as Record<string, unknown>);
    const seen = this.messages.find(p);
    if (seen !== undefined) return Promise.resolve(seen as T);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching WS message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`)), timeoutMs);
      this.waiters.push({
        pred: p,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m as T);
        },
      });
    });
  }

  waitClosed(timeoutMs = WAIT_MS): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('WS not closed in time')), timeoutMs);
      this.ws.once('close', (code, reason) => {
        clearTimeout(t);
        resolve({ code, reason: reason.toString() });
      });
    });
  }
}
