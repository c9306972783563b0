/**
 * The static-IP whitelist of spec 5.7: two slots (primary, secondary), IPv4 or IPv6 in any mix;
 * order writes only from a listed address. A slot cannot be cleared, only replaced, and at most
 * once per calendar week (IST, Monday-based) on the simulator's clock.
 */
import { isIP } from 'node:net';
import type { Clock } from '../../../core/clock.js';
import { DAY_MS, istDayStart, istWeekday } from '../../../core/time.js';

export const IpSlot = { PRIMARY: 'primary', SECONDARY: 'secondary' } as const;
export type IpSlot = (typeof IpSlot)[keyof typeof IpSlot];

export class StaticIpError extends Error {
  readonly code = 'STATIC_IP_INVALID' as const;
}

/** `::ffff:127.0.0.1` (IPv4 seen through a dual-stack socket) is 127.0.0.1. */
export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return (m ? m[1]! : ip).toLowerCase();
}

export class StaticIpWhitelist {
  private readonly slots: Record<IpSlot, string>;
  private readonly changedAt: Partial<Record<IpSlot, number>> = {};

  constructor(
    private readonly clock: Clock,
    initial: { primary: string; secondary: string } = { primary: '127.0.0.1', secondary: '::1' },
    /** Off in tests that re-point slots often; on by default as in spec 5.7. */
    private readonly weeklyChangeRule = true,
  ) {
    this.slots = { primary: checkIp(initial.primary, 'primary'), secondary: checkIp(initial.secondary, 'secondary') };
  }

  allows(ip: string | undefined): boolean {
    if (!ip) return false;
    const n = normaliseIp(ip);
    return n === this.slots.primary || n === this.slots.secondary;
  }

  get addresses(): { primary: string; secondary: string } {
    return { ...this.slots };
  }

  /** Dashboard change of one slot. Throws StaticIpError naming the rule broken. */
  set(slot: IpSlot, ip: string): void {
    const value = checkIp(ip, slot);
    const last = this.changedAt[slot];
    const now = this.clock.now();
    if (this.weeklyChangeRule && last !== undefined && weekStart(last) === weekStart(now)) {
      throw new StaticIpError(`${slot}: a static IP can be changed at most once per calendar week; next change allowed from ${new Date(weekStart(now) + 7 * DAY_MS).toISOString()}`);
    }
    this.slots[slot] = value;
    this.changedAt[slot] = now;
  }
}

function checkIp(ip: string, slot: string): string {
  if (typeof ip !== 'string' || isIP(normaliseIp(ip)) === 0) {
    throw new StaticIpError(`${slot}: ${JSON.stringify(ip)} is not an IPv4 or IPv6 address (a slot cannot be cleared, only replaced)`);
  }
  return normaliseIp(ip);
}

function weekStart(ts: number): number {
  return istDayStart(ts) - (istWeekday(ts) - 1) * DAY_MS;
}
