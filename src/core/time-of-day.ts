/**
 * Times of day as strategies configure them (`'09:20'`, `'15:10'`): minutes after IST midnight.
 * A zod schema so a bad value in YAML or `--param` fails naming the parameter.
 */
import { z } from 'zod';
import { MINUTE_MS, istDayStart } from './time.js';

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:MM` (24-hour, IST) parsed to minutes after midnight. */
export const timeOfDay = z
  .string()
  .regex(HHMM, 'expected a time of day as HH:MM (IST, 24-hour)')
  .transform((s) => {
    const m = HHMM.exec(s);
    return Number(m?.[1]) * 60 + Number(m?.[2]);
  });

/** Minutes after IST midnight of the instant `ts`. */
export function istMinuteOfDay(ts: number): number {
  return Math.floor((ts - istDayStart(ts)) / MINUTE_MS);
}

/** `HH:MM` of a minute-of-day, for messages. */
export function formatMinuteOfDay(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}
