import { sql } from "drizzle-orm";
import { z } from "zod";
import { rollupJobStatus } from "@/lib/analytics/rollups/rollup-status";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getDb, getDbDriver } from "@/lib/db";

export const dynamic = "force-dynamic";

const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["pglite", "postgres"]),
  analyticsRollups: z
    .object({
      runner: z.enum(["worker", "in-process"]).describe("worker: a thread of its own (PostgreSQL); in-process: the server's thread (PGlite)"),
      lagSeconds: z.number().min(0).describe("How long the oldest event not yet rolled up has waited; 0 when caught up"),
      pendingProjects: z.number().int().min(0),
      checkedAt: z.iso.datetime(),
    })
    .nullable()
    .describe("This process's analytics rollup job; null before its first round"),
});

// It also says how far behind this process's analytics rollup job is (null before its first round).
export const GET = defineRoute(
  {
    path: "/api/health",
    operationId: "getHealth",
    tag: "System",
    summary: "Readiness: 200 when the database answers, 503 when it does not",
    access: "public",
    responses: { 200: { description: "Ready", schema: healthSchema } },
    errors: { 503: "The database does not answer" },
  },
  async () => {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return json({ status: "ok", database: await getDbDriver(), analyticsRollups: rollupJobStatus() });
  },
);
