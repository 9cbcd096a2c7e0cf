import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./index";
import * as schema from "./schema";

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

/**
 * How many rows each table of the schema holds, by table name, in one statement (one snapshot):
 * `reelbind db row-counts`, to compare a restore with its backup, or to show that requests the
 * API refused stored nothing (the reliability suite).
 */
export async function countRowsPerTable(db: Db): Promise<Record<string, number>> {
  const query = sql.join(
    tables.map((table) => sql`select ${getTableName(table)} as name, count(*)::int as rows from ${table}`),
    sql` union all `,
  );
  const result = await db.execute<{ name: string; rows: number }>(query);
  // postgres.js returns the rows, PGlite `{ rows }`.
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: { name: string; rows: number }[] }).rows;
  return Object.fromEntries(rows.map((row) => [row.name, row.rows]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}
