import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { maxWindowDays } from "@/lib/analytics/definitions";
import { utcDay, windowDays } from "@/lib/analytics/contract";
import { breakdownFactsCtes, scopedEventsCte, selectRows, type AnalyticsFilter } from "./sql";
import { toBreakdownRow, type BreakdownQueryRow, type BreakdownRow } from "./get-breakdown";

/** The day breakdown: one row per UTC date the window touches, oldest first, days without events as zeros. */
export async function getDaily(db: Db, filter: AnalyticsFilter): Promise<BreakdownRow[]> {
  const days = windowDays(filter.from, filter.to);
  if (days === 0) return [];
  if (days > maxWindowDays) throw new RangeError(`A day breakdown covers at most ${maxWindowDays} days; this window touches ${days}`);
  const firstDay = utcDay(filter.from).toISOString().slice(0, 10);
  const rows = await selectRows<BreakdownQueryRow>(
    db,
    sql`with ${scopedEventsCte(filter)}, ${breakdownFactsCtes("day")},
    days as (
      select to_char(${firstDay}::date + n, 'YYYY-MM-DD') as key from generate_series(0, ${days - 1}::int) as n
    )
    select days.key, coalesce(sum(facts.sessions), 0)::int as sessions, coalesce(sum(facts.plays), 0)::int as plays,
      coalesce(sum(facts.completions), 0)::int as completions, coalesce(sum(facts.cta_clicks), 0)::int as cta_clicks
    from days left join facts on facts.key = days.key
    group by days.key
    order by days.key`,
  );
  return rows.map(toBreakdownRow);
}
