/**
 * Seeded pseudo-random numbers for the market model. Each instrument owns an independent stream
 * (seeded from the model seed and the instrument id), so an instrument's path does not depend on
 * which other instruments exist or how finely time is advanced.
 */
import { MULBERRY32_STEP, mix32, mulberry32Bits, seedHash } from '../../../core/random.js';

/** The seed of an instrument's stream: its id hashed under the model seed. */
export { seedHash as hashSeed, mix32 };

/**
 * The seed of an instrument's stream for the session opening at `sessionOpen` (epoch ms): a
 * function of the instrument's seed and the session only, so a session's draws do not depend on
 * how many were drawn before it (a model can start at any session without replaying the earlier ones).
 */
export function sessionStreamSeed(instrumentSeed: number, sessionOpen: number): number {
  return mix32((instrumentSeed + Math.imul(Math.floor(sessionOpen / 60_000) | 0, 0x9e3779b1)) >>> 0);
}

/**
 * Many mulberry32 streams in one typed array (one uint32 of state per stream): cheap to hold for
 * thousands of instruments and fast to step.
 */
export class RandomStreams {
  private readonly state: Uint32Array;
  private readonly spare: Float64Array;
  private readonly hasSpare: Uint8Array;

  constructor(seeds: readonly number[]) {
    this.state = Uint32Array.from(seeds, (s) => s >>> 0 || 0x9e3779b9);
    this.spare = new Float64Array(seeds.length);
    this.hasSpare = new Uint8Array(seeds.length);
  }

  /** Restarts stream `i` from `seed` (a new session's stream: see `sessionStreamSeed`). */
  reseed(i: number, seed: number): void {
    this.state[i] = seed >>> 0 || 0x9e3779b9;
    this.hasSpare[i] = 0;
  }

  /** 32 random bits (several small decisions can share one draw). */
  bits(i: number): number {
    const s = (this.state[i]! + MULBERRY32_STEP) >>> 0;
    this.state[i] = s;
    return mulberry32Bits(s);
  }

  /** Uniform in [0, 1). */
  uniform(i: number): number {
    return this.bits(i) / 4294967296;
  }

  /** Standard normal (Box-Muller, the second value kept for the next call). */
  normal(i: number): number {
    if (this.hasSpare[i]) {
      this.hasSpare[i] = 0;
      return this.spare[i]!;
    }
    let u = this.uniform(i);
    if (u < 1e-12) u = 1e-12;
    const v = this.uniform(i);
    const r = Math.sqrt(-2 * Math.log(u));
    const a = 2 * Math.PI * v;
    this.spare[i] = r * Math.sin(a);
    this.hasSpare[i] = 1;
    return r * Math.cos(a);
  }
}

/**
 * Normal and exponential variates from 32 random bits by table lookup (inverse CDF at 4,096
 * points, linearly interpolated with the remaining 20 bits). Tails are cut near +/-3.5 sigma and
 * 9 means respectively, which a price path at tick resolution does not miss, and the cost is a
 * few nanoseconds instead of a log, a square root and a sine per draw.
 */
const TABLE_BITS = 12;
const TABLE_SIZE = 1 << TABLE_BITS;
const FRAC_SCALE = 1 / (1 << (32 - TABLE_BITS));

function inverseNormal(p: number): number {
  // Acklam's rational approximation (relative error < 1.2e-9).
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - lo) return -inverseNormal(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

function table(quantile: (p: number) => number): Float64Array {
  const t = new Float64Array(TABLE_SIZE + 1);
  for (let k = 0; k <= TABLE_SIZE; k++) t[k] = quantile(Math.min(Math.max(k / TABLE_SIZE, 0.5 / TABLE_SIZE), 1 - 0.5 / TABLE_SIZE));
  return t;
}

const NORMAL_TABLE = table(inverseNormal);
const EXPONENTIAL_TABLE = table((p) => -Math.log(1 - p));

/** A standard normal variate from 32 random bits. */
export function normalFromBits(bits: number): number {
  const k = bits >>> (32 - TABLE_BITS);
  const f = (bits & ((1 << (32 - TABLE_BITS)) - 1)) * FRAC_SCALE;
  const lo = NORMAL_TABLE[k]!;
  return lo + (NORMAL_TABLE[k + 1]! - lo) * f;
}

/** A unit-mean exponential variate from 32 random bits. */
export function exponentialFromBits(bits: number): number {
  const k = bits >>> (32 - TABLE_BITS);
  const f = (bits & ((1 << (32 - TABLE_BITS)) - 1)) * FRAC_SCALE;
  const lo = EXPONENTIAL_TABLE[k]!;
  return lo + (EXPONENTIAL_TABLE[k + 1]! - lo) * f;
}
