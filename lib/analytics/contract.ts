import { z } from "zod";
import { deviceTypes } from "@/lib/ingest/device-types";
import { channelSchema } from "@/lib/shares/contract";
import {
  defaultWindowDays,
  funnelQuartiles,
  hourlyDefaultMaxDays,
  maxHourlyWindowDays,
  maxWindowDays,
  seriesGranularities,
  unknownKey,
} from "./definitions";

const dayMs = 24 * 60 * 60 * 1000;
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
// Keeps every window bound, and `from` plus the default length, a four-digit year PostgreSQL reads back.
const latestInstant = Date.UTC(9999, 0, 1);

/** A date (UTC midnight) or a date-time with Z or an offset; local times without a zone are ambiguous, so refused. */
export const instant = z
  .string()
  .refine((value) => isoDate.safeParse(value).success || isoDateTime.safeParse(value).success, {
    error: "must be an ISO 8601 date (2026-03-01, UTC midnight) or date-time with a time zone (2026-03-01T12:00:00Z)",
  })
  .transform((value) => new Date(isoDate.safeParse(value).success ? `${value}T00:00:00.000Z` : value))
  .refine((date) => date.getTime() >= 0 && date.getTime() < latestInstant, { error: "must be between 1970 and 9998 (UTC)" });

/** The query string as sent; `analyticsQuery` resolves the window. Also the OpenAPI description of the parameters. */
export const analyticsQueryParams = z.strictObject({
  from: instant
    .optional()
    .describe(
      `Start of the window, inclusive: a date (UTC midnight) or a date-time with a zone; default: \`to\` minus ${defaultWindowDays} days. Reports count whole UTC days: a time within a day widens to its midnight`,
    ),
  to: instant
    .optional()
    .describe(
      `End of the window, exclusive, in the same forms; default: the next UTC midnight (the window ends with today), or \`from\` plus ${defaultWindowDays} days when that is earlier than \`from\`. A time within a day widens to the next midnight`,
    ),
  channel: channelSchema.optional(),
  templateId: z
    .uuid()
    .transform((value) => value.toLowerCase())
    .optional(),
  templateVersion: z
    .string()
    .regex(/^[0-9]{1,9}\.[0-9]{1,9}$/, { error: "must be a template version, major.minor (e.g. 1.0)" })
    .optional()
    .describe("Only events of this template version (exact match)"),
  deviceType: z
    .enum([...deviceTypes, unknownKey])
    .optional()
    .describe("Only events from this device type, as enrichment types devices; unknown: none recorded"),
  country: z
    .string()
    .regex(/^([A-Z]{2}|unknown)$/, { error: "must be an ISO 3166-1 alpha-2 code in upper case (e.g. FR), or unknown" })
    .optional()
    .describe("Only events from this country (ISO 3166-1 alpha-2), or unknown: none recorded"),
  granularity: z
    .enum(seriesGranularities)
    .optional()
    .describe(`The series' buckets; default: hour when the window touches at most ${hourlyDefaultMaxDays} UTC days, else day`),
});

/** UTC midnight of the date holding `time`. */
export function utcDay(time: Date): Date {
  return new Date(Math.floor(time.getTime() / dayMs) * dayMs);
}

/** How many UTC dates [from, to) touches: the rows of the day breakdown. */
export function windowDays(from: Date, to: Date): number {
  if (to <= from) return 0;
  return (utcDay(new Date(to.getTime() - 1)).getTime() - utcDay(from).getTime()) / dayMs + 1;
}

/** The window a query string names, defaults applied; undefined (with the issue added) when it is empty or too long. */
function resolveWindow(params: { from?: Date; to?: Date }, ctx: z.RefinementCtx): { from: Date; to: Date } | undefined {
  const to = params.to ?? (params.from ? defaultTo(params.from) : new Date(utcDay(new Date()).getTime() + dayMs));
  const from = params.from ?? new Date(to.getTime() - defaultWindowDays * dayMs);
  // Report on a parameter the caller sent, so the message points at something they can change.
  const path = [params.to ? "to" : "from"];
  if (to <= from) {
    ctx.addIssue({ code: "custom", path, input: params, message: "the window is empty: `to` must be after `from`" });
    return undefined;
  }
  if (windowDays(from, to) > maxWindowDays) {
    ctx.addIssue({
      code: "custom",
      path,
      input: params,
      message: `the window may touch at most ${maxWindowDays} UTC days (the day breakdown has one row per day)`,
    });
    return undefined;
  }
  return { from, to };
}

/** The report's window and filters, defaults applied, from parameters analyticsQueryParams parsed. */
function resolveAnalyticsQuery(params: z.output<typeof analyticsQueryParams>, ctx: z.RefinementCtx) {
  const window = resolveWindow(params, ctx);
  if (!window) return z.NEVER;
  const days = windowDays(window.from, window.to);
  if (params.granularity === "hour" && days > maxHourlyWindowDays) {
    ctx.addIssue({
      code: "custom",
      path: ["granularity"],
      input: params,
      message: `an hourly series covers at most ${maxHourlyWindowDays} UTC days; this window touches ${days} (use granularity=day)`,
    });
    return z.NEVER;
  }
  return {
    ...window,
    ...resolvedFilters(params),
    granularity: params.granularity ?? (days <= hourlyDefaultMaxDays ? ("hour" as const) : ("day" as const)),
  };
}

export const analyticsQuery = analyticsQueryParams.transform(resolveAnalyticsQuery);

/** analyticsQuery's second step alone, for the route, whose contract parsed analyticsQueryParams: the window (422 when empty or too long). */
export const analyticsWindow = z.custom<z.output<typeof analyticsQueryParams>>().transform(resolveAnalyticsQuery);

/** GET …/analytics/heatmap: the report's filters without the series, and one template (one timeline). */
export const heatmapQueryParams = analyticsQueryParams.omit({ granularity: true }).extend({
  templateId: z
    .uuid()
    .transform((value) => value.toLowerCase())
    .describe("The template whose timeline the heatmap covers"),
});

function resolveHeatmapQuery(params: z.output<typeof heatmapQueryParams>, ctx: z.RefinementCtx) {
  const window = resolveWindow(params, ctx);
  if (!window) return z.NEVER;
  return { ...window, ...resolvedFilters(params), templateId: params.templateId };
}

export const heatmapQuery = heatmapQueryParams.transform(resolveHeatmapQuery);

/** heatmapQuery's second step alone, for the route, whose contract parsed heatmapQueryParams. */
export const heatmapWindow = z.custom<z.output<typeof heatmapQueryParams>>().transform(resolveHeatmapQuery);

export type HeatmapQuery = z.output<typeof heatmapQuery>;

/** GET …/analytics/quarantine: a window only, of whole UTC hours (not widened to days). */
export const quarantineQueryParams = z.strictObject({
  from: instant.optional().describe(`Start of the window, inclusive, in the same forms as the report's; default: \`to\` minus ${defaultWindowDays} days`),
  to: instant.optional().describe("End of the window, exclusive; default: the next UTC midnight"),
});

const resolveQuarantineQuery = (params: z.output<typeof quarantineQueryParams>, ctx: z.RefinementCtx) => resolveWindow(params, ctx) ?? z.NEVER;

export const quarantineQuery = quarantineQueryParams.transform(resolveQuarantineQuery);

/** quarantineQuery's second step alone, for the route, whose contract parsed quarantineQueryParams. */
export const quarantineWindow = z.custom<z.output<typeof quarantineQueryParams>>().transform(resolveQuarantineQuery);

export type QuarantineQuery = z.output<typeof quarantineQuery>;

/** A report's `filters`: the resolved query's. */
export function filtersOf(query: ReturnType<typeof resolvedFilters>): z.output<typeof analyticsFiltersSchema> {
  const { channel, templateId, templateVersion, deviceType, country } = query;
  return { channel, templateId, templateVersion, deviceType, country };
}

/** The filters a query names, null for each one it leaves out. */
function resolvedFilters(params: Omit<z.output<typeof analyticsQueryParams>, "from" | "to" | "granularity">) {
  return {
    channel: params.channel ?? null,
    templateId: params.templateId ?? null,
    templateVersion: params.templateVersion ?? null,
    deviceType: params.deviceType ?? null,
    country: params.country ?? null,
  };
}

/** With only `from`: the default end (next UTC midnight), unless that is before `from`, then a default-length window. */
function defaultTo(from: Date): Date {
  const tomorrow = new Date(utcDay(new Date()).getTime() + dayMs);
  return tomorrow > from ? tomorrow : new Date(from.getTime() + defaultWindowDays * dayMs);
}

export type AnalyticsQuery = z.output<typeof analyticsQuery>;

// ── response ──────────────────────────────────────────────────────────────────────────────

const count = z.number().int().min(0);
const fraction = z.number().min(0).max(1).nullable().describe("A fraction 0–1; null when its denominator is 0");

export const analyticsSummarySchema = z.object({
  sessions: count,
  uniqueViewers: count,
  plays: count,
  sessionsWithPlay: count,
  playRate: fraction,
  completedPlays: count,
  completionRate: fraction,
  averageWatchPercent: z.number().min(0).max(100).nullable().describe("Mean highest percent reached per play; null without plays"),
  ctaClicks: count,
  sessionsWithPlayAndCtaClick: count,
  ctr: fraction,
  autoplayFailures: count,
  errors: count,
});

export const quartileFunnelSchema = z.object({
  plays: count,
  steps: z.array(z.object({ percent: z.literal(funnelQuartiles), count, share: fraction })),
});

export const breakdownRowSchema = z.object({ key: z.string(), sessions: count, plays: count, completions: count, ctaClicks: count });

const windowSchema = z.object({ from: z.iso.datetime(), to: z.iso.datetime() });

export const analyticsFiltersSchema = z.object({
  channel: channelSchema.nullable(),
  templateId: z.uuid().nullable(),
  templateVersion: z.string().nullable(),
  deviceType: z.string().nullable(),
  country: z.string().nullable(),
});

export const seriesPointSchema = z.object({
  start: z.iso.datetime().describe("The bucket's start (UTC)"),
  sessions: count,
  plays: count,
  completions: count,
  ctaClicks: count,
});

export const chapterRowSchema = z.object({
  chapterId: z.string(),
  chapterName: z.string(),
  sessions: count,
  plays: count,
  share: fraction.describe("Of the window's plays; null without plays"),
});

export const freshnessSchema = z
  .object({
    asOf: z.iso.datetime().nullable().describe("When the newest event the answer includes was received; null when the project has none"),
    pendingEvents: count.describe(
      "Events already stored that the answer does not include yet (the rollup job is behind); 0 when it is complete. Counted up to 100,000 (a longer backlog shows as 100,000)",
    ),
  })
  .describe("How recent the answer is: every event received up to `asOf` is in it, except `pendingEvents` ones stored later in the job's order");

export const projectAnalyticsSchema = z.object({
  window: windowSchema,
  freshness: freshnessSchema,
  filters: analyticsFiltersSchema,
  summary: analyticsSummarySchema,
  previous: z
    .object({ window: windowSchema, summary: analyticsSummarySchema })
    .describe("The period of equal length just before `from`, with the same filters"),
  series: z.object({
    granularity: z.enum(seriesGranularities),
    points: z.array(seriesPointSchema).describe("Every bucket the window touches, oldest first, zero-filled"),
  }),
  funnel: quartileFunnelSchema,
  chapters: z.array(chapterRowSchema).describe("Plays that entered each chapter (chapter.entered), by the position it was first seen at"),
  excluded: z.object({ botEvents: count.describe("Events in the window and filters kept out of every metric as bots") }),
  breakdowns: z.object({
    day: z.array(breakdownRowSchema).describe("One row per UTC date the window touches, oldest first, zero-filled; key YYYY-MM-DD"),
    channel: z.array(breakdownRowSchema),
    templateVersion: z.array(breakdownRowSchema),
    deviceType: z.array(breakdownRowSchema),
    browser: z.array(breakdownRowSchema),
    os: z.array(breakdownRowSchema),
    referrerHost: z.array(breakdownRowSchema),
    country: z.array(breakdownRowSchema).describe("ISO 3166-1 alpha-2 codes"),
  }),
});

export type ProjectAnalytics = z.output<typeof projectAnalyticsSchema>;

export const heatmapSecondSchema = z.object({
  second: count,
  watchedPlays: count,
  share: fraction.describe("watchedPlays / plays"),
  views: count,
  rewatches: count,
  dropOffs: count,
});

export const engagementHeatmapSchema = z.object({
  window: windowSchema,
  freshness: freshnessSchema,
  filters: analyticsFiltersSchema,
  templateId: z.uuid(),
  durationMs: count.nullable().describe("From the template's Lottie file; null when unknown (the timeline then ends at the furthest watched millisecond)"),
  plays: count.describe("Plays with at least one reported watched span"),
  seconds: z.array(heatmapSecondSchema).describe("One row per second of the timeline, 0 first"),
  chapters: z.array(z.object({ chapterId: z.string(), chapterName: z.string(), startMs: count, endMs: count.nullable() })),
});

export type EngagementHeatmap = z.output<typeof engagementHeatmapSchema>;

export const quarantineReportSchema = z.object({
  window: windowSchema,
  reasons: z.array(z.object({ reason: z.string(), count })).describe("Most refused first"),
  samples: z
    .array(
      z.object({
        receivedAt: z.iso.datetime(),
        reason: z.string(),
        event: z.unknown().describe("The refused envelope; its JSON text cut to 4 KB (then a string) when longer"),
      }),
    )
    .describe("Newest first"),
});

export type QuarantineReport = z.output<typeof quarantineReportSchema>;
