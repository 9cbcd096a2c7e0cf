import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { getBotEvents } from "./queries/get-bot-events";
import { getBreakdown } from "./queries/get-breakdown";
import { getChapters } from "./queries/get-chapters";
import { getDaily } from "./queries/get-daily";
import { getQuartileFunnel } from "./queries/get-quartile-funnel";
import { getSeries } from "./queries/get-series";
import { getSummary } from "./queries/get-summary";
import type { AnalyticsQuery, ProjectAnalytics } from "./schema";
import type { AnalyticsFilter } from "./sql";

/**
 * Everything GET /api/Projects/{projectId}/analytics answers, for one project. The queries run
 * in one read-only repeatable-read transaction, so events arriving meanwhile cannot make the
 * summary and the breakdowns disagree.
 */
export async function getProjectAnalytics(db: Db, { project }: ProjectAccess, query: AnalyticsQuery): Promise<ProjectAnalytics> {
  const filter: AnalyticsFilter = { ...query, projectId: project.id };
  const previous: AnalyticsFilter = { ...filter, from: new Date(2 * query.from.getTime() - query.to.getTime()), to: query.from };
  return db.transaction(
    async (tx) => {
      const summary = await getSummary(tx, filter);
      return {
        window: windowOf(filter),
        filters: {
          channel: query.channel,
          templateId: query.templateId,
          templateVersion: query.templateVersion,
          deviceType: query.deviceType,
          country: query.country,
        },
        summary,
        previous: { window: windowOf(previous), summary: await getSummary(tx, previous) },
        series: await getSeries(tx, filter),
        funnel: await getQuartileFunnel(tx, filter),
        chapters: await getChapters(tx, filter, summary.plays),
        excluded: { botEvents: await getBotEvents(tx, filter) },
        breakdowns: {
          day: await getDaily(tx, filter),
          channel: await getBreakdown(tx, filter, "channel"),
          templateVersion: await getBreakdown(tx, filter, "templateVersion"),
          deviceType: await getBreakdown(tx, filter, "deviceType"),
          browser: await getBreakdown(tx, filter, "browser"),
          os: await getBreakdown(tx, filter, "os"),
          referrerHost: await getBreakdown(tx, filter, "referrerHost"),
          country: await getBreakdown(tx, filter, "country"),
        },
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

const windowOf = ({ from, to }: { from: Date; to: Date }) => ({ from: from.toISOString(), to: to.toISOString() });
