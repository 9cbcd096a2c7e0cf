import { sql } from "drizzle-orm";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { getBotEvents } from "./get-bot-events";
import { getBreakdown } from "./get-breakdown";
import { getChapters } from "./get-chapters";
import { getDaily } from "./get-daily";
import { getQuartileFunnel } from "./get-quartile-funnel";
import { getSeries } from "./get-series";
import { getSummary } from "./get-summary";
import { filtersOf, type AnalyticsQuery, type ProjectAnalytics } from "@/lib/analytics/contract";
import { selectRows } from "@/lib/analytics/select-rows";
import type { AnalyticsFilter } from "./sql";

/**
 * The report of GET /api/Projects/{projectId}/analytics computed from raw events, as the API
 * did before rollups: the benchmark's baseline (npm run bench:analytics) and the reference the
 * rollups are tested against. Its window is exact to the millisecond and counts each event by
 * its own time (the rollups attribute sessions and plays to the day they started: lib/analytics/definitions.ts).
 */
export async function getProjectAnalyticsRaw(db: Db, { project }: ProjectAccess, query: AnalyticsQuery): Promise<ProjectAnalytics> {
  const filter: AnalyticsFilter = { ...query, projectId: project.id };
  const previous: AnalyticsFilter = { ...filter, from: new Date(2 * query.from.getTime() - query.to.getTime()), to: query.from };
  return db.transaction(
    async (tx) => {
      const summary = await getSummary(tx, filter);
      const [newest] = await selectRows<{ at: string | null }>(
        tx,
        sql`select to_char(max(received_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from analytics_events where project_id = ${project.id}::uuid`,
      );
      return {
        window: windowOf(filter),
        // Raw rows are always complete: nothing is pending.
        freshness: { asOf: newest?.at ?? null, pendingEvents: 0 },
        filters: filtersOf(query),
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
