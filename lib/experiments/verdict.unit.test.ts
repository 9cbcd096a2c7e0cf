import { describe, expect, it } from "vitest";
import { formatPValue, overallVerdict, testVerdict } from "./verdict";

describe("formatPValue – rounded down to 3 decimals", () => {
  it.each([
    { pValue: 0.0000633, text: "p < 0.001" },
    { pValue: 0.001, text: "p = 0.001" },
    { pValue: 0.0038, text: "p = 0.003" },
    { pValue: 0.0499, text: "p = 0.049" },
    { pValue: 0.05, text: "p = 0.05" },
    { pValue: 0.41, text: "p = 0.41" },
    { pValue: 1, text: "p = 1" },
  ])("formatPValue – $pValue → $text", ({ pValue, text }) => {
    expect(formatPValue(pValue)).toBe(text);
  });
});

describe("testVerdict – one rate of a variant against the control", () => {
  const names = { label: "B", controlLabel: "A" };
  it.each([
    { rate: "completionRate", difference: 0.2, text: "Variant B completes more often than A (p = 0.003)" },
    { rate: "completionRate", difference: -0.2, text: "Variant B completes less often than A (p = 0.003)" },
    { rate: "ctr", difference: 0.05, text: "Variant B gets more CTA clicks per playing session than A (p = 0.003)" },
    { rate: "ctr", difference: -0.05, text: "Variant B gets fewer CTA clicks per playing session than A (p = 0.003)" },
  ] as const)("testVerdict – $rate, difference $difference, significant → $text", ({ rate, difference, text }) => {
    expect(testVerdict(rate, names, { difference, z: 3, pValue: 0.0031 }, { enoughData: true, significant: true })).toBe(text);
  });

  it("testVerdict – not significant → no significant difference, with the p-value", () => {
    expect(testVerdict("ctr", names, { difference: 0.01, z: 0.3, pValue: 0.744 }, { enoughData: true, significant: false })).toBe("No significant difference from A (p = 0.744)");
  });

  it("testVerdict – below the minimum sample, or no test → not enough data", () => {
    expect(testVerdict("ctr", names, { difference: 0.5, z: 9, pValue: 0 }, { enoughData: false, significant: false })).toBe("Not enough data yet");
    expect(testVerdict("ctr", names, null, { enoughData: true, significant: false })).toBe("Not enough data yet");
  });
});

describe("overallVerdict – the comparison's one sentence", () => {
  const test = (enoughData: boolean, significant: boolean, verdict = "…") => ({ enoughData, significant, verdict });
  it("overallVerdict – the significant differences, joined", () => {
    expect(overallVerdict([test(true, true, "Variant B completes more often than A (p = 0.003)"), test(true, false), test(true, true, "Variant C completes less often than A (p = 0.01)")])).toEqual({
      status: "significant_difference",
      text: "Variant B completes more often than A (p = 0.003); Variant C completes less often than A (p = 0.01)",
    });
  });

  it("overallVerdict – none significant, some with enough data → no significant difference yet", () => {
    expect(overallVerdict([test(false, false), test(true, false)])).toEqual({ status: "no_significant_difference", text: "No significant difference yet" });
  });

  it("overallVerdict – no test with enough data (or no test) → not enough data yet", () => {
    expect(overallVerdict([test(false, false)])).toEqual({ status: "not_enough_data", text: "Not enough data yet" });
    expect(overallVerdict([])).toEqual({ status: "not_enough_data", text: "Not enough data yet" });
  });
});
