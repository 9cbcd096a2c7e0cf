import type { z } from "zod";
import type { chapterRowSchema, EngagementHeatmap, ProjectAnalytics, QuarantineReport, seriesPointSchema } from "@/lib/analytics/contract";

// What the dashboard reads from the analytics API, as the API's response schemas define it
// (lib/analytics/contract.ts; the meanings in lib/analytics/definitions.ts).

export type AnalyticsReport = ProjectAnalytics;
export type AnalyticsSummary = ProjectAnalytics["summary"];
export type BreakdownRow = ProjectAnalytics["breakdowns"]["day"][number];
export type SeriesPoint = z.output<typeof seriesPointSchema>;
export type ChapterReached = z.output<typeof chapterRowSchema>;
export type HeatmapReport = EngagementHeatmap;
export type HeatmapSecond = EngagementHeatmap["seconds"][number];
export type { QuarantineReport };
