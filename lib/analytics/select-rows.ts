import type { SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";

/** Rows of a raw query, whichever driver runs it (postgres.js returns an array, PGlite `{ rows }`). */
export async function selectRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as unknown as { rows: Row[] }).rows) as Row[];
}
