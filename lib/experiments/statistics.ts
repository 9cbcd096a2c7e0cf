import { errorFunction } from "simple-statistics";

// The statistics of an A/B comparison (docs/adr/0151-ab-variant-statistics.md): a rate with its
// 95 % Wilson score interval, a pooled two-proportion z-test of a variant against the control,
// and the minimum sample below which neither is shown as a verdict.

/** Successes out of trials: completed plays of plays, sessions that clicked of sessions that played. */
export type Proportion = { successes: number; trials: number };

/** The quantile of the standard normal distribution at 0.975: a two-sided 95 % interval. */
export const z95 = 1.959963984540054;

/**
 * The smallest sample an arm needs before its rate is compared: at least 100 trials, and at least
 * 10 successes and 10 failures (the usual condition, n·p ≥ 10 and n·(1 − p) ≥ 10, for the normal
 * approximation that the z-test stands on).
 */
export const minimumSample = { trials: 100, successes: 10, failures: 10 } as const;

function check({ successes, trials }: Proportion): void {
  if (!Number.isSafeInteger(trials) || trials < 0) throw new RangeError(`trials must be a whole number ≥ 0, not ${trials}`);
  if (!Number.isSafeInteger(successes) || successes < 0 || successes > trials) throw new RangeError(`successes must be a whole number from 0 to trials (${trials}), not ${successes}`);
}

/** Whether the proportion meets the minimum sample (minimumSample). */
export function hasEnoughData(proportion: Proportion): boolean {
  check(proportion);
  const { successes, trials } = proportion;
  return trials >= minimumSample.trials && successes >= minimumSample.successes && trials - successes >= minimumSample.failures;
}

/**
 * The Wilson score interval of a proportion (Wilson 1927; Newcombe 1998, method 3): unlike the
 * Wald interval it stays within [0, 1] and is not zero-width at 0 or n successes. Null without trials.
 */
export function wilsonInterval(proportion: Proportion, z = z95): { low: number; high: number } | null {
  check(proportion);
  const { successes, trials: n } = proportion;
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n successes one bound is exactly 0 or 1 in theory; floating point may miss it by an ulp.
  return { low: successes === 0 ? 0 : Math.max(0, center - halfWidth), high: successes === n ? 1 : Math.min(1, center + halfWidth) };
}

/** The two-sided p-value of a standard normal statistic: 2·(1 − Φ(|z|)) = erfc(|z|/√2). */
export function twoSidedPValue(z: number): number {
  return Math.min(1, Math.max(0, 1 - errorFunction(Math.abs(z) / Math.SQRT2)));
}

export type TwoProportionTest = {
  /** The variant's rate minus the control's. */
  difference: number;
  z: number;
  pValue: number;
};

/**
 * The two-proportion z-test of H0: both rates are equal, with the pooled standard error
 * √(p̂(1 − p̂)(1/n₁ + 1/n₂)), p̂ = (x₁ + x₂)/(n₁ + n₂); two-sided. Null when an arm has no trials.
 * When both arms are all successes or all failures there is no spread: z = 0, p = 1.
 */
export function twoProportionTest(variant: Proportion, control: Proportion): TwoProportionTest | null {
  check(variant);
  check(control);
  if (variant.trials === 0 || control.trials === 0) return null;
  const difference = variant.successes / variant.trials - control.successes / control.trials;
  const pooled = (variant.successes + control.successes) / (variant.trials + control.trials);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / variant.trials + 1 / control.trials));
  if (standardError === 0) return { difference, z: 0, pValue: 1 };
  const z = difference / standardError;
  return { difference, z, pValue: twoSidedPValue(z) };
}
