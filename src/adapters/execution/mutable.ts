/**
 * `T` with its fields writable: execution builds an event or request as one literal and then sets
 * the optional fields that apply, one allocation instead of a conditional spread per field (these
 * run for every order update and fill of a backtest). The object is frozen in spirit once handed on.
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
