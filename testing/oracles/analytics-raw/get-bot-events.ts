import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { scopeConditions, selectRows, type ScopeFilter } from "./sql";

/** Events in the window and filters that enrichment classified as bots: what every metric left out. */
export async function getBotEvents(db: Db, filter: ScopeFilter): Promise<number> {
  const [row] = await selectRows<{ bot_events: number }>(
    db,
    sql`select count(*)::int as bot_events from analytics_events where ${scopeConditions(filter)} and is_bot`,
  );
  return row?.bot_events ?? 0;
}
