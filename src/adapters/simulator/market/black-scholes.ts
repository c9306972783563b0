/**
 * Black-Scholes option value (no dividends), for pricing simulated options off their underlying's
 * path so an option chain moves with its index. Floats are fine here: the result is rounded to
 * the option's tick before anyone sees it.
 */

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf; absolute error < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * Value of a European call or put. `spot`, `strike` in the same unit (paise here), `years` to
 * expiry, `vol` annualised, `rate` continuously compounded. At or past expiry: intrinsic value.
 */
export function blackScholes(isCall: boolean, spot: number, strike: number, years: number, vol: number, rate = 0): number {
  if (!(years > 0) || !(vol > 0)) return Math.max(0, isCall ? spot - strike : strike - spot);
  const sd = vol * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (rate + 0.5 * vol * vol) * years) / sd;
  const d2 = d1 - sd;
  const df = Math.exp(-rate * years);
  return isCall ? spot * normalCdf(d1) - strike * df * normalCdf(d2) : strike * df * normalCdf(-d2) - spot * normalCdf(-d1);
}
