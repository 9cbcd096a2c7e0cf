import type { AnalyticsReport, HeatmapReport } from "./analytics-types";
import { kpis } from "./kpis";

// The dashboard's current view as CSV, made in the browser from what it shows: one table in
// long form (section, key, metric, value), so every part fits the same four columns and a
// spreadsheet can pivot it. Values are the API's numbers (rates as fractions).

type Row = [section: string, key: string, metric: string, value: string | number | null];

/** RFC 4180 quoting; a leading =, +, - or @ is prefixed with ' so a spreadsheet does not run it as a formula. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function analyticsCsv(report: AnalyticsReport, view: { filters: Record<string, string | null> }, heatmap: HeatmapReport | null): string {
  const rows: Row[] = [
    ["window", "from", "", report.window.from],
    ["window", "to", "", report.window.to],
  ];
  for (const [name, value] of Object.entries(view.filters)) if (value) rows.push(["filter", name, "", value]);
  for (const kpi of kpis) {
    rows.push(["summary", "", kpi.key, report.summary[kpi.key]]);
    rows.push(["previous period", "", kpi.key, report.previous.summary[kpi.key]]);
  }
  for (const step of report.funnel.steps) {
    rows.push(["funnel", `${step.percent}%`, "plays", step.count]);
    rows.push(["funnel", `${step.percent}%`, "share", step.share]);
  }
  for (const point of report.series.points) {
    for (const metric of ["sessions", "plays", "completions", "ctaClicks"] as const) rows.push(["series", point.start, metric, point[metric]]);
  }
  for (const [dimension, breakdown] of Object.entries(report.breakdowns)) {
    if (dimension === "day") continue;
    for (const row of breakdown) {
      for (const metric of ["sessions", "plays", "completions", "ctaClicks"] as const) rows.push([`by ${dimension}`, row.key, metric, row[metric]]);
    }
  }
  for (const chapter of report.chapters) {
    rows.push(["chapters", chapter.chapterName, "plays", chapter.plays]);
    rows.push(["chapters", chapter.chapterName, "share", chapter.share]);
  }
  if (heatmap) {
    for (const second of heatmap.seconds) {
      for (const metric of ["share", "views", "rewatches", "dropOffs"] as const) rows.push([`heatmap ${heatmap.templateId}`, String(second.second), metric, second[metric]]);
    }
  }
  const lines = [["section", "key", "metric", "value"], ...rows].map((row) => row.map(csvField).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
