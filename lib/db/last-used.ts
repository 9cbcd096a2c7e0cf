import { isNull, lt, or } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/** last_used_at is written at most once a minute per row, so that busy clients' reads do not all become writes. */
const lastUsedResolutionMs = 60_000;

/** Whether a last-used value just read is due for an update: lets callers skip the write entirely. */
export function lastUsedWasDue(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || lastUsedAt.getTime() < now.getTime() - lastUsedResolutionMs;
}

/** The same rule as a SQL condition, so that concurrent requests write the column once. */
export function lastUsedIsDue(column: PgColumn, now: Date) {
  return or(isNull(column), lt(column, new Date(now.getTime() - lastUsedResolutionMs)));
}
