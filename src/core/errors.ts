/**
 * Coded error classes. Every error tarang throws on purpose carries a literal `code` (stable, for
 * programs) and a readonly `context` (what was wrong and where, for people). Modules define their
 * own subclasses next to the code that throws them; this file holds the base and the shared ones.
 */
export type ErrorContext = Readonly<Record<string, unknown>>;

export abstract class TarangError extends Error {
  abstract readonly code: string;
  readonly context: ErrorContext;

  constructor(message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.context = Object.freeze({ ...context });
  }
}

/** A config file or option failed validation. The message names the file and the key path. */
export class ConfigError extends TarangError {
  readonly code = 'CONFIG_INVALID' as const;
}

/** A CSV file (instrument master, candles) could not be read as promised. */
export class CsvError extends TarangError {
  readonly code = 'CSV_INVALID' as const;
}

/** A price or quantity that cannot be represented exactly (off tick, fractional paise, ...). */
export class PriceError extends TarangError {
  readonly code = 'PRICE_INVALID' as const;
}

/** A programming contract was broken (an impossible state). Never caught to be ignored. */
export class InvariantError extends TarangError {
  readonly code = 'INVARIANT' as const;
}

export function isTarangError(e: unknown): e is TarangError {
  return e instanceof TarangError;
}

/** Best-effort human text of any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e);
}
