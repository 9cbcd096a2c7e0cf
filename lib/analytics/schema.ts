import { z } from "zod";
import { channelSchema } from "@/lib/shares/schema";
import { defaultWindowDays, funnelQuartiles, maxWindowDays } from "./definitions";

const dayMs = 24 * 60 * 60 * 1000;
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
// Keeps every window bound, and `from` plus the default length, a four-digit year PostgreSQL reads back.
const latestInstant = Date.UTC(9999, 0, 1);

/** A date (UTC midnight) or a date-time with Z or an offset; local times without a zone are ambiguous, so refused. */
const instant = z
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
    .describe(`Start of the window, inclusive: a date (UTC midnight) or a date-time with a zone; default: \`to\` minus ${defaultWindowDays} days`),
  to: instant
    .optional()
    .describe(
      `End of the window, exclusive, in the same forms; default: the next UTC midnight (the window ends with today), or \`from\` plus ${defaultWindowDays} days when that is earlier than \`from\``,
    ),
  channel: channelSchema.optional(),
  templateId: z
    .uuid()
    .transform((value) => value.toLowerCase())
    .optional(),
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

export const analyticsQuery = analyticsQueryParams.transform((params, ctx) => {
  const to = params.to ?? (params.from ? defaultTo(params.from) : new Date(utcDay(new Date()).getTime() + dayMs));
  const from = params.from ?? new Date(to.getTime() - defaultWindowDays * dayMs);
  // Report on a parameter the caller sent, so the message points at something they can change.
  const path = [params.to ? "to" : "from"];
  if (to <= from) {
    ctx.issues.push({ code: "custom", path, input: params, message: "the window is empty: `to` must be after `from`" });
    return z.NEVER;
  }
  if (windowDays(from, to) > maxWindowDays) {
    ctx.issues.push({
      code: "custom",
      path,
      input: params,
      message: `the window may touch at most ${maxWindowDays} UTC days (the day breakdown has one row per day)`,
    });
    return z.NEVER;
  }
  return { from, to, channel: params.channel ?? null, templateId: params.templateId ?? null };
});

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

export const projectAnalyticsSchema = z.object({
  window: z.object({ from: z.iso.datetime(), to: z.iso.datetime() }),
  filters: z.object({ channel: channelSchema.nullable(), templateId: z.uuid().nullable() }),
  summary: analyticsSummarySchema,
  funnel: quartileFunnelSchema,
  breakdowns: z.object({
    day: z.array(breakdownRowSchema).describe("One row per UTC date the window touches, oldest first, zero-filled; key YYYY-MM-DD"),
    channel: z.array(breakdownRowSchema),
    templateVersion: z.array(breakdownRowSchema),
    deviceType: z.array(breakdownRowSchema),
    browser: z.array(breakdownRowSchema),
    country: z.array(breakdownRowSchema).describe("ISO 3166-1 alpha-2 codes"),
  }),
});

export type ProjectAnalytics = z.output<typeof projectAnalyticsSchema>;
