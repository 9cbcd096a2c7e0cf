import type { Db } from "@/lib/db";
import { projectVerb } from "@/lib/services/verbs";
import { funnelQuartiles, maxBreakdownKeys, rate, seriesBuckets, type SeriesGranularity } from "./definitions";
import type { DailyCounter } from "./rollups/contribution";
import { documentBreakdown, reportMasks, filterBreakdown, readHours, readScope, type RollupScope, type ScopeTotals } from "./rollups/read";
import { readReportTail, type RollupChange } from "./rollups/pending";
import { filtersOf, type AnalyticsQuery, type ProjectAnalytics } from "./contract";
import { readSnapshot } from "./snapshot";

const dayMs = 86_400_000;

/**
 * Everything GET /api/Projects/{projectId}/analytics answers, for one project, from the rollups
 * plus the events the job has not rolled up yet (a bounded tail: rollups/pending.ts). The window
 * widens to whole UTC days, as the rollups count them; the answer's `window` says which, its
 * `freshness` how recent it is. The reads run in one read-only repeatable-read transaction, so
 * the rollups, the tail, the summary and the breakdowns cannot disagree.
 */
export const getProjectAnalytics = projectVerb("analytics.read", async ({ db, access: { project } }, query: AnalyticsQuery): Promise<ProjectAnalytics> => {
  const { from, to } = wholeDays(query.from, query.to);
  const previousFrom = new Date(2 * from.getTime() - to.getTime());
  const scope = scopeOf(project.id, query, from, to);
  const previousScope = scopeOf(project.id, query, previousFrom, from);
  return readSnapshot(db, async (tx) => {
    // The tail, spread over the masks this report reads only: its summary's and its breakdowns'.
    const { change: tail, ...freshness } = await readReportTail(tx, project.id, { masks: reportMasks(scope) });
    const totals = await readScope(tx, scope, { documents: true, tail });
    const summary = summaryOf(totals);
    const dayRows = dayBreakdown(totals, from, to);
    return {
      window: windowOf(from, to),
      freshness,
      filters: filtersOf(query),
      summary,
      previous: { window: windowOf(previousFrom, from), summary: summaryOf(await readScope(tx, previousScope, { documents: false, tail })) },
      series: await seriesOf(tx, scope, query.granularity, from, to, dayRows, tail),
      funnel: {
        plays: summary.plays,
        steps: funnelQuartiles.map((percent) => {
          const count = totals.counters[percent === 100 ? "completed_plays" : (`reached_${percent}` as DailyCounter)];
          return { percent, count, share: rate(count, summary.plays) };
        }),
      },
      chapters: chaptersOf(totals, summary.plays),
      excluded: { botEvents: totals.counters.bot_events },
      breakdowns: {
        day: dayRows,
        channel: await filterBreakdown(tx, scope, "channel", tail),
        templateVersion: await filterBreakdown(tx, scope, "templateVersion", tail),
        deviceType: await filterBreakdown(tx, scope, "deviceType", tail),
        browser: documentBreakdown(totals, "browser"),
        os: documentBreakdown(totals, "os"),
        referrerHost: documentBreakdown(totals, "referrerHost"),
        country: await filterBreakdown(tx, scope, "country", tail),
      },
    };
  });
});

/** [from, to) widened to whole UTC days. */
export function wholeDays(from: Date, to: Date): { from: Date; to: Date } {
  return { from: new Date(Math.floor(from.getTime() / dayMs) * dayMs), to: new Date(Math.ceil(to.getTime() / dayMs) * dayMs) };
}

export function scopeOf(projectId: string, query: Omit<RollupScope, "projectId" | "fromDay" | "toDay">, from: Date, to: Date): RollupScope {
  return {
    projectId,
    fromDay: from.toISOString().slice(0, 10),
    toDay: to.toISOString().slice(0, 10),
    channel: query.channel,
    templateId: query.templateId,
    templateVersion: query.templateVersion,
    deviceType: query.deviceType,
    country: query.country,
  };
}

const windowOf = (from: Date, to: Date) => ({ from: from.toISOString(), to: to.toISOString() });

/** The summary of a scope's totals (definitions.ts says what each number means); the A/B comparison reads its variants' with it too. */
export function summaryOf({ counters, uniqueViewers }: ScopeTotals): ProjectAnalytics["summary"] {
  return {
    sessions: counters.sessions,
    // Each session has one viewer: the sketch's estimate (±1.6 %) never shows more viewers than sessions.
    uniqueViewers: Math.min(uniqueViewers, counters.sessions),
    plays: counters.plays,
    sessionsWithPlay: counters.sessions_with_play,
    playRate: rate(counters.sessions_with_play, counters.sessions),
    completedPlays: counters.completed_plays,
    completionRate: rate(counters.completed_plays, counters.plays),
    averageWatchPercent: counters.plays === 0 ? null : counters.watch_percent_sum / counters.plays,
    ctaClicks: counters.cta_clicks,
    sessionsWithPlayAndCtaClick: counters.sessions_with_play_and_cta_click,
    ctr: rate(counters.sessions_with_play_and_cta_click, counters.sessions_with_play),
    autoplayFailures: counters.autoplay_failures,
    errors: counters.errors,
  };
}

/** Every UTC date of the window, oldest first, zero-filled. */
function dayBreakdown(totals: ScopeTotals, from: Date, to: Date): ProjectAnalytics["breakdowns"]["day"] {
  const byDay = new Map(totals.days.map((day) => [day.day, day.counters]));
  return seriesBuckets(from, to, "day").map((start) => {
    const key = start.slice(0, 10);
    const counters = byDay.get(key);
    return {
      key,
      sessions: counters?.sessions ?? 0,
      plays: counters?.plays ?? 0,
      completions: counters?.completed_plays ?? 0,
      ctaClicks: counters?.cta_clicks ?? 0,
    };
  });
}

async function seriesOf(
  db: Db,
  scope: RollupScope,
  granularity: SeriesGranularity,
  from: Date,
  to: Date,
  dayRows: ProjectAnalytics["breakdowns"]["day"],
  tail: RollupChange | null,
): Promise<ProjectAnalytics["series"]> {
  if (granularity === "day") {
    return { granularity, points: dayRows.map(({ key, ...facts }) => ({ start: `${key}T00:00:00.000Z`, ...facts })) };
  }
  const hours = await readHours(db, scope, from, to, tail);
  return {
    granularity,
    points: seriesBuckets(from, to, "hour").map((start) => {
      const [sessions, plays, completions, ctaClicks] = hours.get(start) ?? [0, 0, 0, 0];
      return { start, sessions, plays, completions, ctaClicks };
    }),
  };
}

/** Chapters by the lowest position they were entered at (unknown last), then id by code point. */
function chaptersOf(totals: ScopeTotals, plays: number): ProjectAnalytics["chapters"] {
  return [...totals.chapters]
    .filter(([, [sessions, chapterPlays]]) => sessions !== 0 || chapterPlays !== 0)
    .sort(([idA, a], [idB, b]) => (a[2] ?? Infinity) - (b[2] ?? Infinity) || Buffer.compare(Buffer.from(idA), Buffer.from(idB)))
    .slice(0, maxBreakdownKeys)
    .map(([chapterId, [sessions, chapterPlays, , name]]) => ({ chapterId, chapterName: name, sessions, plays: chapterPlays, share: rate(chapterPlays, plays) }));
}
