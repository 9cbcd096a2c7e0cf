import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { getBreakdown } from "./queries/get-breakdown";
import { getDaily } from "./queries/get-daily";
import { getQuartileFunnel } from "./queries/get-quartile-funnel";
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
  return db.transaction(
    async (tx) => ({
      window: { from: query.from.toISOString(), to: query.to.toISOString() },
      filters: { channel: query.channel, templateId: query.templateId },
      summary: await getSummary(tx, filter),
      funnel: await getQuartileFunnel(tx, filter),
      breakdowns: {
        day: await getDaily(tx, filter),
        channel: await getBreakdown(tx, filter, "channel"),
        templateVersion: await getBreakdown(tx, filter, "templateVersion"),
        deviceType: await getBreakdown(tx, filter, "deviceType"),
        browser: await getBreakdown(tx, filter, "browser"),
        country: await getBreakdown(tx, filter, "country"),
      },
    }),
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
