/**
 * Numbers parsed straight from bytes. Prices become integer paise without passing through a
 * float (so "1426.55" is exactly 142655, not 142654.99999999997 rounded). More than two decimals
 * (US files quote 1.953125) are rounded half away from zero to the paisa and flagged, so the
 * loader can say how many prices it rounded.
 */
const C0 = 48;

export const numberFlags = {
  /** The last parsePaiseField rounded away a sub-paisa remainder. */
  rounded: false,
};

/** Rupee decimal text at [s, e) to paise; NaN when empty or malformed. Quotes/spaces skipped. */
export function parsePaiseField(b: Uint8Array, s: number, e: number): number {
  numberFlags.rounded = false;
  while (s < e && (b[s] === 32 || b[s] === 34 || b[s] === 9)) s++;
  while (e > s && (b[e - 1] === 32 || b[e - 1] === 34 || b[e - 1] === 13 || b[e - 1] === 9)) e--;
  if (s === e) return NaN;
  let neg = false;
  if (b[s] === 45) {
    neg = true;
    s++;
  } else if (b[s] === 43) s++;
  let whole = 0;
  let i = s;
  let nd = 0;
  for (; i < e; i++) {
    const c = b[i]!;
    if (c >= 48 && c <= 57) {
      whole = whole * 10 + (c - C0);
      nd++;
    } else if (c === 44) continue; // digit grouping: 5,82,909.05
    else break;
  }
  let frac = 0;
  if (i < e && b[i] === 46) {
    i++;
    let k = 0;
    let roundUp = false;
    for (; i < e; i++, k++) {
      const c = b[i]!;
      if (c < 48 || c > 57) break;
      if (k < 2) frac = frac * 10 + (c - C0);
      else if (k === 2) roundUp = c >= 53;
      if (k >= 2 && c !== 48) numberFlags.rounded = true;
    }
    if (k === 1) frac *= 10;
    if (roundUp) frac += 1;
    nd += k;
  }
  if (i !== e || nd === 0) return slowPaise(b, s, e, neg);
  const p = whole * 100 + frac;
  return neg ? -p : p;
}

/** Exponents and other rare spellings: through Number, then to the nearest paisa. */
function slowPaise(b: Uint8Array, s: number, e: number, neg: boolean): number {
  const text = Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1');
  if (!/^[0-9.]+(?:[eE][+-]?\d+)?$/.test(text)) return NaN;
  const v = Number(text) * 100;
  if (!Number.isFinite(v)) return NaN;
  const r = Math.round(v);
  numberFlags.rounded = Math.abs(v - r) > 1e-6;
  return neg ? -r : r;
}

/** A plain non-negative quantity (volume, OI): digits with an optional fraction; NaN when bad. */
export function parseQtyField(b: Uint8Array, s: number, e: number): number {
  while (s < e && (b[s] === 32 || b[s] === 34 || b[s] === 9)) s++;
  while (e > s && (b[e - 1] === 32 || b[e - 1] === 34 || b[e - 1] === 13 || b[e - 1] === 9)) e--;
  if (s === e) return NaN;
  let v = 0;
  let i = s;
  for (; i < e; i++) {
    const c = b[i]!;
    if (c >= 48 && c <= 57) v = v * 10 + (c - C0);
    else if (c !== 44) break;
  }
  if (i === e) return v;
  const text = Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1').replaceAll(',', '');
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : NaN;
}
