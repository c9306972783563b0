import { describe, expect, it } from 'vitest';
import { OrderUpdateStream } from '../../../../src/adapters/broker/ws/order-updates.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import type { VenuePosition } from '../../../../src/adapters/execution/venue.js';

describe('the order stream position poll', () => {
  it('reads positions one at a time: polls that come due while a read is waiting are skipped, not queued', async () => {
    const clock = new VirtualClock(0);
    const waiting: Array<(p: readonly VenuePosition[]) => void> = [];
    const stream = new OrderUpdateStream({
      // Nothing listens on port 9: the socket fails to connect and waits a day to retry.
      url: 'ws://127.0.0.1:9/',
      clock,
      logger: silentLogger(),
      tokens: { token: async () => 't', renew: async () => 't' },
      pingIntervalMs: 10_000,
      stallMs: 10_000,
      reconnectBaseMs: 86_400_000,
      reconnectMaxMs: 86_400_000,
      handshakeTimeoutMs: 1000,
      positionPollMs: 1000,
      fetchOrders: async () => [],
      fetchPositions: () => new Promise((resolve) => waiting.push(resolve)),
    });
    stream.start();
    try {
      // A minute of polls comes due while the first read is still waiting (a virtual clock moved
      // at once, or a broker that answers slowly): one read, not sixty queued behind it.
      clock.advanceBy(60_000);
      expect(waiting).toHaveLength(1);
      expect(stream.stats().polls).toBe(1);
      // Once it answers, the next poll reads again.
      waiting[0]!([]);
      await new Promise((r) => setImmediate(r));
      clock.advanceBy(1000);
      expect(waiting).toHaveLength(2);
      waiting[1]!([]);
    } finally {
      await stream.stop();
    }
  });
});
