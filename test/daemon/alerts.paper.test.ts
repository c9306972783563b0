/**
 * Alerts a running daemon raises from what the broker session reports: token generation stopped
 * while running (a revoked token, and the TOTP secret it would renew with is wrong) is lockout
 * risk, raised once as TOTP_LOCKOUT while every renewal stays refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertEvent, Event } from '../../src/core/events.js';
import { startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

describe('a running paper daemon', () => {
  let h: PaperHarness;
  beforeAll(async () => {
    h = await startPaperHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('raises TOTP_LOCKOUT once when its token is revoked and the TOTP secret to renew it is refused', async () => {
    const alerts: AlertEvent[] = [];
    // A valid token to start with; a secret the broker will refuse when the token must be renewed.
    const d = await h.daemon({ n: 50, broker: { totpSecret: 'JBSWY3DPEHPK3PXP' }, observe: (e: Event) => void (e.type === 'alert' && alerts.push(e)) });
    await h.control('POST', '/sim/tokens/revoke', {});
    await until(() => alerts.some((a) => a.code === 'TOTP_LOCKOUT'), 'a TOTP_LOCKOUT alert');
    // Raised once however many calls are refused meanwhile.
    await h.elapse(10_000);
    expect(alerts.filter((a) => a.code === 'TOTP_LOCKOUT')).toHaveLength(1);
    const a = alerts.find((x) => x.code === 'TOTP_LOCKOUT')!;
    expect(a.level).toBe('critical');
    expect(a.context).toEqual({ reason: 'wrong_totp' });
    expect(a.message).toMatch(/^token generation stopped \(wrong_totp\): .*TARANG_TOTP_SECRET/);
    await d.stop('test done', 'none');
  });
});
