import { describe, expect, it } from "vitest";
import { formatKpi, kpiChange, kpis } from "./kpis";

const kpi = (key: string) => kpis.find((k) => k.key === key)!;

describe("formatKpi", () => {
  it.each([
    ["count", 1234, "1,234"],
    ["rate", 0.4256, "42.6 %"],
    ["percent", 37.25, "37.3 %"],
    ["rate", null, "—"],
  ] as const)("%s %s → %s", (kind, value, text) => {
    expect(formatKpi(kind, value)).toBe(text);
  });
});

describe("kpiChange", () => {
  it.each([
    ["plays up", "plays", 12, 10, { text: "+20 %", direction: "up", good: true }],
    ["plays down", "plays", 5, 10, { text: "−50 %", direction: "down", good: false }],
    ["plays from nothing", "plays", 3, 0, { text: "new", direction: "up", good: true }],
    ["plays unchanged", "plays", 0, 0, { text: "±0 %", direction: "flat", good: null }],
    ["errors up is bad", "errors", 4, 2, { text: "+100 %", direction: "up", good: false }],
    ["a rate in points", "completionRate", 0.5, 0.25, { text: "+25 pts", direction: "up", good: true }],
    ["a percent in points", "averageWatchPercent", 40, 42.5, { text: "−2.5 pts", direction: "down", good: false }],
  ] as const)("%s", (_name, key, current, previous, expected) => {
    expect(kpiChange(kpi(key), current, previous)).toEqual(expected);
  });

  it("no comparison when a side has no value", () => {
    expect(kpiChange(kpi("ctr"), 0.5, null)).toBeNull();
    expect(kpiChange(kpi("ctr"), null, 0.5)).toBeNull();
  });
});
