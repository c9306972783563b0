/**
 * Intraday activity profile: Indian equities trade most actively just after the open and just
 * before the close (the well-known U shape of intraday volume and volatility). `activity(x)` for
 * x in [0, 1] (share of the session elapsed) has mean 1 over the session, so it scales a daily
 * volatility or volume without changing the day's total.
 */
const OPEN_WEIGHT = 1.6;
const CLOSE_WEIGHT = 1.0;
const DECAY = 0.07;

function raw(x: number): number {
  return 1 + OPEN_WEIGHT * Math.exp(-x / DECAY) + CLOSE_WEIGHT * Math.exp(-(1 - x) / DECAY);
}

// Mean of raw over [0, 1], in closed form: 1 + w * DECAY * (1 - e^(-1/DECAY)) for each end.
const MEAN = 1 + (OPEN_WEIGHT + CLOSE_WEIGHT) * DECAY * (1 - Math.exp(-1 / DECAY));

export function activity(x: number): number {
  const c = x < 0 ? 0 : x > 1 ? 1 : x;
  return raw(c) / MEAN;
}
