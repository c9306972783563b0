import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { DaemonMetrics } from '../../../src/adapters/ops/metrics.js';
import { OpsServer, type ControlHandler, type HealthReport } from '../../../src/adapters/ops/server.js';
import { sendControl, ControlClientError } from '../../../src/adapters/ops/ctl-client.js';

const TOKEN = 'a'.repeat(20) + 'secret-token';

function setup(health: Partial<HealthReport> = {}) {
  const calls: string[] = [];
  let state = 'active';
  const control: ControlHandler = {
    status: () => ({ tradingState: state }),
    halt: async (reason) => {
      calls.push(`halt:${reason}`);
      state = 'halted';
      return { tradingState: state };
    },
    resume: async () => {
      calls.push('resume');
      state = 'active';
      return { tradingState: state };
    },
    flatten: async (reason) => {
      calls.push(`flatten:${reason}`);
      return { exits: 2 };
    },
  };
  const metrics = new DaemonMetrics({ processMetrics: true });
  const server = new OpsServer({
    port: 0,
    token: TOKEN,
    metrics,
    control,
    health: () => ({ status: 'ok', tradingState: state, reconciled: true, connections: { 'ws:prices': { connected: true } }, lastTickAgeMs: 12, ...health }),
  });
  return { server, metrics, calls };
}

const servers: OpsServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

describe('OpsServer', () => {
  it('serves /health as JSON, 200 when ok and 503 when down', async () => {
    const a = setup();
    servers.push(a.server);
    await a.server.start();
    const res = await request(`${a.server.url}/health`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ status: 'ok', tradingState: 'active', reconciled: true, connections: { 'ws:prices': { connected: true } }, lastTickAgeMs: 12 });
    const b = setup({ status: 'down', reconciled: false });
    servers.push(b.server);
    await b.server.start();
    const down = await request(`${b.server.url}/health`);
    expect(down.statusCode).toBe(503);
    expect(((await down.body.json()) as HealthReport).reconciled).toBe(false);
  });

  it('serves Prometheus text with the trading counters and process memory', async () => {
    const a = setup();
    servers.push(a.server);
    await a.server.start();
    a.metrics.observe({ type: 'tick', ts: 1_000, instrument: 'NSE_1', ltp: 100 });
    a.metrics.observe({ type: 'tick', ts: 2_000, instrument: 'NSE_1', ltp: 101 });
    a.metrics.rateLimited.inc({ api: 'order' });
    a.metrics.tickToOrder.observe(0.00004);
    const res = await request(`${a.server.url}/metrics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = await res.body.text();
    expect(text).toMatch(/^tarang_ticks_total 2$/m);
    expect(text).toMatch(/^tarang_http_429_total\{api="order"\} 1$/m);
    expect(text).toMatch(/^tarang_tick_to_order_seconds_count 1$/m);
    expect(text).toMatch(/^tarang_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^tarang_last_tick_timestamp_seconds 2$/m);
  });

  it('runs control commands for the right token only, via the ctl client', async () => {
    const a = setup();
    servers.push(a.server);
    await a.server.start();
    const url = a.server.url;
    expect(await sendControl({ url, token: TOKEN, command: 'status' })).toEqual({ tradingState: 'active' });
    expect(await sendControl({ url, token: TOKEN, command: 'halt', reason: 'lunch' })).toEqual({ tradingState: 'halted' });
    expect(await sendControl({ url, token: TOKEN, command: 'flatten' })).toEqual({ exits: 2 });
    expect(await sendControl({ url, token: TOKEN, command: 'resume' })).toEqual({ tradingState: 'active' });
    expect(a.calls).toEqual(['halt:lunch', 'flatten:operator flatten (tarang ctl)', 'resume']);
    await expect(sendControl({ url, token: `${TOKEN}x`, command: 'halt' })).rejects.toThrow(/refused the control token/);
    const anon = await request(`${url}/control/halt`, { method: 'POST' });
    expect(anon.statusCode).toBe(401);
    await anon.body.dump();
    expect(a.calls).toHaveLength(3);
  });

  it('the ctl client names the address when no daemon answers', async () => {
    await expect(sendControl({ url: 'http://127.0.0.1:1', token: TOKEN, command: 'status', timeoutMs: 500 })).rejects.toBeInstanceOf(ControlClientError);
    await expect(sendControl({ url: 'http://127.0.0.1:1', token: TOKEN, command: 'status', timeoutMs: 500 })).rejects.toThrow(/no daemon answering at http:\/\/127\.0\.0\.1:1/);
  });

  it('refuses a short token at construction', () => {
    const a = setup();
    expect(() => new OpsServer({ port: 0, token: 'short', metrics: a.metrics, health: () => ({}) as HealthReport, control: {} as ControlHandler })).toThrow(/at least 16/);
  });
});
