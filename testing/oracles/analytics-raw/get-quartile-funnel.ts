import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { funnelQuartiles, rate, type FunnelQuartile } from "@/lib/analytics/definitions";
import { playsCte, scopedEventsCte, selectRows, type AnalyticsFilter } from "./sql";

export type QuartileFunnel = {
  plays: number;
  /** One step per quartile, 25 to 100: plays that reached it, and their share of all plays (null without plays). */
  steps: { percent: FunnelQuartile; count: number; share: number | null }[];
};

type FunnelRow = { plays: number; reached_25: number; reached_50: number; reached_75: number; reached_100: number };

/** How many plays reached 25, 50, 75 and 100 percent (lib/analytics/definitions.ts). */
export async function getQuartileFunnel(db: Db, filter: AnalyticsFilter): Promise<QuartileFunnel> {
  const [row] = await selectRows<FunnelRow>(
    db,
    sql`with ${scopedEventsCte(filter)}, ${playsCte}
    select
      count(*)::int as plays,
      (count(*) filter (where highest_quartile >= 25))::int as reached_25,
      (count(*) filter (where highest_quartile >= 50))::int as reached_50,
      (count(*) filter (where highest_quartile >= 75))::int as reached_75,
      (count(*) filter (where completed))::int as reached_100
    from plays`,
  );
  if (!row) throw new Error("The funnel query returned no row");
  return {
    plays: row.plays,
    steps: funnelQuartiles.map((percent) => {
      const count = row[`reached_${percent}`];
      return { percent, count, share: rate(count, row.plays) };
    }),
  };
}
