/**
 * The queue's name on its own, without the rest of the protocol (queue-protocol.ts, which hashes
 * with node:crypto): `tarang worker`'s flag declaration checks it, and `tarang --help` loads that
 * declaration, so it must stay cheap to import.
 */

/** The queue tarang sweeps and workers meet on by default (`--queue-name` picks another: separate pools on one Redis). */
export const QUEUE_NAME = 'tarang-sweep';

/** A queue name BullMQ accepts (it builds Redis keys from it). */
export function checkQueueName(name: string): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new Error(`queue name ${JSON.stringify(name)}: use 1-64 letters, digits, '.', '_' or '-'`);
  return name;
}
