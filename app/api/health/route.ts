import { sql } from "drizzle-orm";
import { rollupJobStatus } from "@/lib/analytics/rollups/rollup-status";
import { withPublic } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { getDb, getDbDriver } from "@/lib/db";

export const dynamic = "force-dynamic";

// GET /api/health – readiness: 200 when the database answers, 503 when it does not. It also says
// how far behind this process's analytics rollup job is (null before its first round).
export const GET = withPublic(async () => {
  const db = await getDb();
  await db.execute(sql`select 1`);
  return json({ status: "ok", database: await getDbDriver(), analyticsRollups: rollupJobStatus() });
});
