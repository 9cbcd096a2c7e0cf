import { describe, expect, it } from "vitest";
import { hasEnoughData, minimumSample, twoProportionTest, twoSidedPValue, wilsonInterval, z95 } from "./statistics";

describe("wilsonInterval – published values", () => {
  // R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17 (1998) 857–872, Table I, method 3 (Wilson score, no
  // continuity correction), 95 %, given to 4 decimals.
  it.each([
    { successes: 81, trials: 263, low: 0.2553, high: 0.3662 },
    { successes: 15, trials: 148, low: 0.0624, high: 0.1605 },
    { successes: 0, trials: 20, low: 0, high: 0.1611 },
    { successes: 1, trials: 29, low: 0.0061, high: 0.1718 },
  ])("wilsonInterval – $successes/$trials → [$low, $high] (Newcombe 1998, Table I)", ({ successes, trials, low, high }) => {
    const interval = wilsonInterval({ successes, trials })!;
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it("wilsonInterval – all successes: the upper bound is 1, the lower one the mirror of 0 successes", () => {
    expect(wilsonInterval({ successes: 20, trials: 20 })).toEqual({ low: 1 - wilsonInterval({ successes: 0, trials: 20 })!.high, high: 1 });
  });

  it("wilsonInterval – the interval holds the observed rate and narrows as the sample grows", () => {
    const small = wilsonInterval({ successes: 30, trials: 100 })!;
    const large = wilsonInterval({ successes: 3000, trials: 10_000 })!;
    for (const interval of [small, large]) expect(interval.low < 0.3 && interval.high > 0.3).toBe(true);
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
  });

  it("wilsonInterval – no trials → null", () => {
    expect(wilsonInterval({ successes: 0, trials: 0 })).toBeNull();
  });
});

describe("twoSidedPValue – the normal tail", () => {
  it.each([
    { z: z95, p: 0.05 },
    { z: -z95, p: 0.05 },
    // 2·(1 − Φ(z)) from the standard normal table: 1 − Φ(1) = 0.158655254, 1 − Φ(3) = 0.001349898.
    { z: 1, p: 0.317310508 },
    { z: 3, p: 0.002699796 },
    { z: 0, p: 1 },
  ])("twoSidedPValue – z = $z → p = $p", ({ z, p }) => {
    expect(twoSidedPValue(z)).toBeCloseTo(p, 7);
  });

  it("twoSidedPValue – far in the tail stays a small number ≥ 0, never negative or NaN", () => {
    expect(twoSidedPValue(12)).toBeGreaterThanOrEqual(0);
    expect(twoSidedPValue(12)).toBeLessThan(1e-9);
  });
});

describe("twoProportionTest – textbook examples", () => {
  // D. Diez, M. Çetinkaya-Rundel, C. Barr, OpenIntro Statistics, 4th ed. (2019), §6.2 exercises,
  // answers in Appendix A, both with the pooled proportion:
  // - "Sleep deprived transportation workers": control 35 of 292, truck drivers 35 of 203 sleep
  //   under 6 hours; p̂_pool = 70/495 = 0.141, Z = −1.65, p-value = 0.0989.
  // - "HIV in sub-Saharan Africa": virologic failure 26 of 120 on Nevaripine, 10 of 120 on
  //   Lopinavir; p̂_pool = 36/240 = 0.15, Z = 2.89, p-value = 0.0039 (the book reads the tail of
  //   the rounded Z = 2.89 in its table; Z = 2.8924 unrounded gives 0.00382).
  it("twoProportionTest – sleep deprivation: Z = −1.65, p = 0.0989", () => {
    const test = twoProportionTest({ successes: 35, trials: 292 }, { successes: 35, trials: 203 })!;
    expect(test.z).toBeCloseTo(-1.65, 2);
    expect(test.pValue).toBeCloseTo(0.0989, 4);
    expect(test.difference).toBeCloseTo(35 / 292 - 35 / 203, 12);
  });

  it("twoProportionTest – HIV treatments: Z = 2.89, p = 0.0039 to the book's rounding", () => {
    const test = twoProportionTest({ successes: 26, trials: 120 }, { successes: 10, trials: 120 })!;
    expect(test.z).toBeCloseTo(2.89, 2);
    expect(Math.abs(test.pValue - 0.0039)).toBeLessThan(1e-4);
    expect(test.pValue).toBeCloseTo(twoSidedPValue(2.8924061), 8);
  });

  it("twoProportionTest – z² equals Pearson's χ² of the 2×2 table (no continuity correction)", () => {
    const [a, n1, c, n2] = [26, 120, 10, 120];
    const table = [
      [a, n1 - a],
      [c, n2 - c],
    ];
    const total = n1 + n2;
    const rowSums = [n1, n2];
    const columnSums = [a + c, total - a - c];
    let chiSquare = 0;
    for (const i of [0, 1]) {
      for (const j of [0, 1]) {
        const expected = (rowSums[i]! * columnSums[j]!) / total;
        chiSquare += (table[i]![j]! - expected) ** 2 / expected;
      }
    }
    expect(twoProportionTest({ successes: a, trials: n1 }, { successes: c, trials: n2 })!.z ** 2).toBeCloseTo(chiSquare, 10);
  });

  it("twoProportionTest – swapping the arms flips the sign of the difference and z, not the p-value", () => {
    const forward = twoProportionTest({ successes: 26, trials: 120 }, { successes: 10, trials: 120 })!;
    const backward = twoProportionTest({ successes: 10, trials: 120 }, { successes: 26, trials: 120 })!;
    expect(backward.difference).toBeCloseTo(-forward.difference, 12);
    expect(backward.z).toBeCloseTo(-forward.z, 12);
    expect(backward.pValue).toBeCloseTo(forward.pValue, 12);
  });

  it.each([
    { name: "both arms all failures", variant: { successes: 0, trials: 50 }, control: { successes: 0, trials: 80 } },
    { name: "both arms all successes", variant: { successes: 50, trials: 50 }, control: { successes: 80, trials: 80 } },
  ])("twoProportionTest – $name → difference 0, z 0, p 1", ({ variant, control }) => {
    expect(twoProportionTest(variant, control)).toEqual({ difference: 0, z: 0, pValue: 1 });
  });

  it("twoProportionTest – an arm without trials → null", () => {
    expect(twoProportionTest({ successes: 0, trials: 0 }, { successes: 5, trials: 10 })).toBeNull();
    expect(twoProportionTest({ successes: 5, trials: 10 }, { successes: 0, trials: 0 })).toBeNull();
  });
});

describe("hasEnoughData – the minimum sample", () => {
  it("hasEnoughData – the rule is 100 trials, 10 successes and 10 failures", () => {
    expect(minimumSample).toEqual({ trials: 100, successes: 10, failures: 10 });
  });

  it.each([
    { successes: 50, trials: 100, enough: true },
    { successes: 50, trials: 99, enough: false },
    { successes: 10, trials: 100, enough: true },
    { successes: 9, trials: 1000, enough: false },
    { successes: 90, trials: 100, enough: true },
    { successes: 991, trials: 1000, enough: false },
    { successes: 0, trials: 0, enough: false },
  ])("hasEnoughData – $successes of $trials → $enough", ({ successes, trials, enough }) => {
    expect(hasEnoughData({ successes, trials })).toBe(enough);
  });
});

describe("statistics – refused input", () => {
  it.each([
    { successes: 5, trials: 4 },
    { successes: -1, trials: 4 },
    { successes: 1.5, trials: 4 },
    { successes: 1, trials: -4 },
    { successes: Number.NaN, trials: 4 },
  ])("wilsonInterval, twoProportionTest, hasEnoughData – $successes of $trials → RangeError", (proportion) => {
    expect(() => wilsonInterval(proportion)).toThrow(RangeError);
    expect(() => twoProportionTest(proportion, { successes: 1, trials: 2 })).toThrow(RangeError);
    expect(() => hasEnoughData(proportion)).toThrow(RangeError);
  });
});
