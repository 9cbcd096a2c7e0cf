import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { seriesBuckets, type SeriesGranularity } from "@/lib/analytics/definitions";
import { scopedEventsCte, selectRows, seriesFactsCtes, type AnalyticsFilter } from "./sql";
import type { BreakdownQueryRow } from "./get-breakdown";

export type SeriesPoint = { start: string; sessions: number; plays: number; completions: number; ctaClicks: number };
export type Series = { granularity: SeriesGranularity; points: SeriesPoint[] };

/** The series: every UTC hour or day bucket the window touches, oldest first, zero-filled (lib/analytics/definitions.ts). */
export async function getSeries(db: Db, filter: AnalyticsFilter): Promise<Series> {
  const { granularity } = filter;
  const rows = await selectRows<BreakdownQueryRow>(
    db,
    sql`with ${scopedEventsCte(filter)}, ${seriesFactsCtes(granularity)}
    select key, sum(sessions)::int as sessions, sum(plays)::int as plays,
      sum(completions)::int as completions, sum(cta_clicks)::int as cta_clicks
    from facts
    group by key`,
  );
  const byStart = new Map(rows.map((row) => [row.key, row]));
  return {
    granularity,
    points: seriesBuckets(filter.from, filter.to, granularity).map((start) => {
      const row = byStart.get(start);
      return { start, sessions: row?.sessions ?? 0, plays: row?.plays ?? 0, completions: row?.completions ?? 0, ctaClicks: row?.cta_clicks ?? 0 };
    }),
  };
}
