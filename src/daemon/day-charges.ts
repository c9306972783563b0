/**
 * The account's brokerage and charges for the day, for the terminal summary at stop: read from the
 * broker's funds (spec 2.2 `brokerage`, `eq_charges`, `fno_charges`), since a trade book gives
 * fills without their charges. At most `timeoutMs`: a broker that does not answer leaves the
 * summary saying the charges are not known, and never holds up the stop.
 */
import type { Logger } from '../core/log.js';
import type { Paise } from '../core/money.js';
import type { ExecutionVenue } from '../adapters/execution/venue.js';

export async function dayCharges(venue: Pick<ExecutionVenue, 'funds'>, log: Logger, timeoutMs = 3000): Promise<Paise | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const read = Promise.resolve(venue.funds()).then((f) => f.charges);
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    return await Promise.race([read, late]);
  } catch (e) {
    log.warn({ err: e }, "daemon: the day's charges could not be read for the summary");
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
