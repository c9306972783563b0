import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, T0, type Harness } from './sim-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('smoke', () => {
  it('answers the profile in the success envelope with the sim clock in Date', async () => {
    const r = await h.call('GET', '/user/profile');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', data: { user_id: 'SIM0001' } });
    expect(Date.parse(String(r.headers['date']))).toBe(Math.floor(T0 / 1000) * 1000);
  });
});
