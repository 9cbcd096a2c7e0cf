import { expect } from "vitest";
import type { Db } from "@/lib/db";
import { readReportTail } from "@/lib/analytics/rollups/pending";
import { refreshRollups } from "@/lib/analytics/rollups/refresh";

/**
 * Runs the rollup job until every stored event of the project is rolled up. One round is not
 * always enough on PostgreSQL: a transaction that another test file opens at that moment (in its
 * own database) can briefly look like one of this database's to the job, which then stops below
 * it, as it must for a transaction it cannot place. The timeout only guards a hang.
 */
export async function rollUpEverything(db: Db, projectId: string): Promise<void> {
  await expect
    .poll(async () => (await refreshRollups(db), await readReportTail(db, projectId)), { timeout: 30_000, interval: 50 })
    .toMatchObject({ change: null, pendingEvents: 0 });
}
