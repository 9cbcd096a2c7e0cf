import { isNull, lt, or } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/** last_used_at is written at most once a minute per row, so that busy clients' reads do not all become writes. */
const lastUsedResolutionMs = 60_000;

/** The condition under which a row's last-used column is due for an update at `now`. */
export function lastUsedIsDue(column: PgColumn, now: Date) {
  return or(isNull(column), lt(column, new Date(now.getTime() - lastUsedResolutionMs)));
}
