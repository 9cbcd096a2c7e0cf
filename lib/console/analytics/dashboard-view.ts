import { maxWindowDays } from "@/lib/analytics/definitions";
import type { Channel } from "@/lib/db/schema";

// The analytics dashboard's state is its URL: a preset range or custom dates, and the filters.
// This module turns the query string into the window and the API's query, and back, so a link
// to a view shows the same view (relative to now for the presets).

export const channels: readonly Channel[] = ["DEV", "STAGING", "PROD"];

export const rangePresets = ["today", "7d", "30d", "90d"] as const;
export type RangePreset = (typeof rangePresets)[number];
export const rangeLabels: Record<RangePreset | "custom", string> = {
  today: "Today (UTC)",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  custom: "Custom dates",
};

/** The filters the API takes besides the window (issue 16 adds the last three). */
export const filterNames = ["channel", "templateId", "templateVersion", "deviceType", "country"] as const;
export type FilterName = (typeof filterNames)[number];

export type DashboardView = {
  range: RangePreset | "custom";
  /** Custom dates, YYYY-MM-DD, both included (UTC). */
  fromDate: string | null;
  toDate: string | null;
  channel: Channel | null;
  templateId: string | null;
  templateVersion: string | null;
  deviceType: string | null;
  country: string | null;
  /** The template the engagement heatmap shows. */
  heatmapTemplateId: string | null;
};

export type DashboardWindow = { from: Date; to: Date; granularity: "hour" | "day" };

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
const presetDays: Record<RangePreset, number> = { today: 1, "7d": 7, "30d": 30, "90d": 90 };
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Anything else in the URL is ignored rather than sent: a bad link shows the default view. */
const filterPatterns: Record<Exclude<FilterName, "channel">, RegExp> = {
  templateId: uuidPattern,
  templateVersion: /^\d{1,9}\.\d{1,9}$/,
  deviceType: /^[a-z]{1,32}$/,
  country: /^([A-Z]{2}|unknown)$/,
};

type SearchParams = { get(name: string): string | null };

/** Reads a view from the query string; what is missing or malformed takes its default (the last 7 days, no filters). */
export function readView(params: SearchParams): DashboardView {
  const pick = (name: Exclude<FilterName, "channel">) => {
    const value = params.get(name);
    return value && filterPatterns[name].test(value) ? value : null;
  };
  const date = (name: string) => {
    const value = params.get(name);
    return value && datePattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null;
  };
  const channel = params.get("channel");
  const heatmap = params.get("heatmap");
  const fromDate = date("from");
  const toDate = date("to");
  const range = params.get("range");
  const custom =
    range === "custom" && fromDate !== null && toDate !== null && fromDate <= toDate && Date.parse(toDate) - Date.parse(fromDate) < maxWindowDays * dayMs;
  return {
    range: custom ? "custom" : rangePresets.find((preset) => preset === range) ?? "7d",
    fromDate: custom ? fromDate : null,
    toDate: custom ? toDate : null,
    channel: channels.find((c) => c === channel) ?? null,
    templateId: pick("templateId"),
    templateVersion: pick("templateVersion"),
    deviceType: pick("deviceType"),
    country: pick("country"),
    heatmapTemplateId: heatmap && uuidPattern.test(heatmap) ? heatmap : null,
  };
}

/** The query string of a view: only what differs from the defaults, in a fixed order. */
export function viewSearch(view: DashboardView): string {
  const params = new URLSearchParams();
  if (view.range !== "7d") params.set("range", view.range);
  if (view.range === "custom") {
    params.set("from", view.fromDate!);
    params.set("to", view.toDate!);
  }
  for (const name of filterNames) {
    const value = view[name];
    if (value) params.set(name, value);
  }
  if (view.heatmapTemplateId) params.set("heatmap", view.heatmapTemplateId);
  return params.toString();
}

/**
 * The window a view covers at `now`: the presets are whole UTC days ending with today (the API
 * counts whole days: lib/analytics/definitions.ts), today by the hour; custom dates include
 * both days.
 */
export function viewWindow(view: DashboardView, now: Date): DashboardWindow {
  if (view.range === "custom") {
    const from = new Date(`${view.fromDate}T00:00:00.000Z`);
    const to = new Date(Date.parse(`${view.toDate}T00:00:00.000Z`) + dayMs);
    return { from, to, granularity: to.getTime() - from.getTime() <= 2 * dayMs ? "hour" : "day" };
  }
  const to = new Date((Math.floor(now.getTime() / dayMs) + 1) * dayMs);
  return { from: new Date(to.getTime() - presetDays[view.range] * dayMs), to, granularity: view.range === "today" ? "hour" : "day" };
}

/** The period of the same length just before the window: what the KPI tiles compare with. */
export function previousWindow({ from, to, granularity }: DashboardWindow): DashboardWindow {
  return { from: new Date(2 * from.getTime() - to.getTime()), to: from, granularity };
}

/** The API's query string for a window and the view's filters. */
export function analyticsSearch(window: DashboardWindow, view: DashboardView): string {
  const params = new URLSearchParams(heatmapSearch(window, view));
  params.set("granularity", window.granularity);
  return params.toString();
}

/** The window and the filters alone: the heatmap's query (its `templateId` is the view's heatmap template). */
export function heatmapSearch(window: DashboardWindow, view: DashboardView): string {
  const params = new URLSearchParams({ from: window.from.toISOString(), to: window.to.toISOString() });
  for (const name of filterNames) {
    const value = view[name];
    if (value) params.set(name, value);
  }
  return params.toString();
}
