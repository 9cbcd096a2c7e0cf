import type { AnalyticsSummary } from "./analytics-types";

// The KPI tiles: which summary numbers, how each is written, and how it compares with the
// previous period (counts by relative change, rates by percentage points).

export type KpiKind = "count" | "rate" | "percent";

export type Kpi = {
  key: keyof AnalyticsSummary;
  label: string;
  kind: KpiKind;
  /** More is worse (errors): the change is coloured the other way round. */
  lowerIsBetter?: boolean;
};

export const kpis: readonly Kpi[] = [
  { key: "sessions", label: "Sessions", kind: "count" },
  { key: "plays", label: "Plays", kind: "count" },
  { key: "playRate", label: "Play rate", kind: "rate" },
  { key: "uniqueViewers", label: "Unique viewers", kind: "count" },
  { key: "completionRate", label: "Completion rate", kind: "rate" },
  { key: "averageWatchPercent", label: "Average watched", kind: "percent" },
  { key: "ctaClicks", label: "CTA clicks", kind: "count" },
  { key: "ctr", label: "Click-through rate", kind: "rate" },
  { key: "autoplayFailures", label: "Autoplay failures", kind: "count", lowerIsBetter: true },
  { key: "errors", label: "Errors", kind: "count", lowerIsBetter: true },
];

const integer = new Intl.NumberFormat("en-US");
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** 1,234 · 42.5 % · 42.5 % (averageWatchPercent is already a percent); "—" when the rate has no denominator. */
export function formatKpi(kind: KpiKind, value: number | null): string {
  if (value === null) return "—";
  if (kind === "count") return integer.format(value);
  return `${oneDecimal.format(kind === "rate" ? value * 100 : value)} %`;
}

export type KpiChange = { text: string; direction: "up" | "down" | "flat"; good: boolean | null };

/**
 * The change against the previous period: "+12 %" for counts ("new" from nothing), "+3.5 pts"
 * for rates and percents; null when either side has no value.
 */
export function kpiChange(kpi: Kpi, current: number | null, previous: number | null): KpiChange | null {
  if (current === null || previous === null) return null;
  let text: string;
  let delta: number;
  if (kpi.kind === "count") {
    delta = current - previous;
    if (previous === 0) text = current === 0 ? "±0 %" : "new";
    else text = `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${oneDecimal.format(Math.abs((delta * 100) / previous))} %`;
  } else {
    delta = kpi.kind === "rate" ? (current - previous) * 100 : current - previous;
    const rounded = Math.round(delta * 10) / 10;
    delta = rounded;
    text = `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${oneDecimal.format(Math.abs(rounded))} pts`;
  }
  const direction = delta > 0 ? "up" : delta < 0 ? "down" : "flat";
  const good = direction === "flat" ? null : (direction === "up") !== Boolean(kpi.lowerIsBetter);
  return { text, direction, good };
}
