import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { maxBreakdownKeys, type BreakdownDimension } from "@/lib/analytics/definitions";
import { breakdownFactsCtes, scopedEventsCte, selectRows, type AnalyticsFilter } from "./sql";

export type BreakdownRow = { key: string; sessions: number; plays: number; completions: number; ctaClicks: number };

export type BreakdownQueryRow = { key: string; sessions: number; plays: number; completions: number; cta_clicks: number };

/**
 * Sessions, plays, completions and CTA clicks per value of one dimension, most sessions first
 * (lib/analytics/definitions.ts). The dimension names an entry of a fixed table, never SQL text.
 */
export async function getBreakdown(db: Db, filter: AnalyticsFilter, dimension: BreakdownDimension): Promise<BreakdownRow[]> {
  const facts = breakdownFactsCtes(dimension);
  const rows = await selectRows<BreakdownQueryRow>(
    db,
    sql`with ${scopedEventsCte(filter)}, ${facts}
    select key, sum(sessions)::int as sessions, sum(plays)::int as plays,
      sum(completions)::int as completions, sum(cta_clicks)::int as cta_clicks
    from facts
    group by key
    order by sessions desc, plays desc, key collate "C"
    limit ${maxBreakdownKeys}`,
  );
  return rows.map(toBreakdownRow);
}

/** The API's camelCase row from a breakdown query's snake_case one. */
export function toBreakdownRow(row: BreakdownQueryRow): BreakdownRow {
  return { key: row.key, sessions: row.sessions, plays: row.plays, completions: row.completions, ctaClicks: row.cta_clicks };
}
