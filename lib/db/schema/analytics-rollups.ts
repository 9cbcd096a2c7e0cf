import { bigint, customType, date, doublePrecision, jsonb, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

// The analytics API's source (lib/analytics/rollups): aggregates the rollup job keeps up to date
// from analytics_events, so no request scans raw events. What every column means, and how
// sessions and plays are attributed to a day, is in lib/analytics/definitions.ts.

const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });
const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });
const counter = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/**
 * The rollup job's progress, per project: every event of the project stored by a transaction
 * below `processed_before` is in the rollups. A project without a row has none rolled up yet.
 * One cursor per project lets the job take projects in turn, so one project's backlog cannot
 * hold another's events back (lib/analytics/rollups/refresh.ts).
 */
export const analyticsRollupCursors = pgTable("analytics_rollup_cursors", {
  projectId: uuid("project_id").primaryKey(),
  processedBefore: xid8("processed_before").notNull(),
  /** received_at of the newest event rolled up: how recent a report read from the rollups alone is. */
  newestReceivedAt: timestamptz("newest_received_at"),
});

/**
 * One UTC day of one project's events, for one combination of the report's filter dimensions.
 * `mask` says which dimensions the row is for (bits: 1 channel, 2 template id, 4 template
 * version, 8 device type, 16 country); the others hold ''. Every day thus has a row per mask
 * and value combination (a cube), so a report with any filters reads one row per day, and a
 * breakdown one per day and key.
 */
export const analyticsDailyRollups = pgTable(
  "analytics_daily_rollups",
  {
    projectId: uuid("project_id").notNull(),
    mask: smallint("mask").notNull(),
    channel: text("channel").notNull(),
    templateId: text("template_id").notNull(),
    templateVersion: text("template_version").notNull(),
    deviceType: text("device_type").notNull(),
    country: text("country").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    sessions: counter("sessions"),
    sessionsWithPlay: counter("sessions_with_play"),
    sessionsWithPlayAndCtaClick: counter("sessions_with_play_and_cta_click"),
    plays: counter("plays"),
    completedPlays: counter("completed_plays"),
    reached25: counter("reached_25"),
    reached50: counter("reached_50"),
    reached75: counter("reached_75"),
    watchPercentSum: doublePrecision("watch_percent_sum").notNull().default(0),
    ctaClicks: counter("cta_clicks"),
    autoplayFailures: counter("autoplay_failures"),
    errors: counter("errors"),
    botEvents: counter("bot_events"),
    heatmapPlays: counter("heatmap_plays"),
    /** browser / os / referrerHost → key → [sessions, plays, completions, CTA clicks]. */
    breakdowns: jsonb("breakdowns").$type<Record<string, Record<string, number[]>>>().notNull().default({}),
    /** chapter id → [sessions, plays, lowest position ms or null, newest name, its time ms]. */
    chapters: jsonb("chapters").$type<Record<string, [number, number, number | null, string, number]>>().notNull().default({}),
    /** Rows of one template only: second → [views, watched plays, drop-offs] changes. */
    heatmap: jsonb("heatmap").$type<Record<string, number[]>>().notNull().default({}),
    heatmapFurthestMs: doublePrecision("heatmap_furthest_ms"),
    /** Unique viewers: a sketch (lib/analytics/rollups/viewer-sketch.ts). */
    viewers: bytea("viewers"),
  },
  (t) => [primaryKey({ name: "analytics_daily_rollups_pk", columns: [t.projectId, t.mask, t.channel, t.templateId, t.templateVersion, t.deviceType, t.country, t.day] })],
);

/** One UTC hour of one project's events per combination of all five filter dimensions: the hourly series. */
export const analyticsHourlyRollups = pgTable(
  "analytics_hourly_rollups",
  {
    projectId: uuid("project_id").notNull(),
    hour: timestamptz("hour").notNull(),
    channel: text("channel").notNull(),
    templateId: text("template_id").notNull(),
    templateVersion: text("template_version").notNull(),
    deviceType: text("device_type").notNull(),
    country: text("country").notNull(),
    sessions: counter("sessions"),
    plays: counter("plays"),
    completions: counter("completions"),
    ctaClicks: counter("cta_clicks"),
  },
  (t) => [primaryKey({ name: "analytics_hourly_rollups_pk", columns: [t.projectId, t.hour, t.channel, t.templateId, t.templateVersion, t.deviceType, t.country] })],
);
