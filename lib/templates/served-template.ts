import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { templates, type Channel } from "@/lib/db/schema";

/**
 * The template a channel serves (docs/design.md, Management API): PROD serves the Production template; DEV and
 * STAGING serve the newest Testing template, else the Production one. Null when there is none.
 */
export async function findServedTemplate(db: Db, projectId: string, channel: Channel) {
  const statuses = channel === "PROD" ? (["Production"] as const) : (["Testing", "Production"] as const);
  const [row] = await db
    .select({
      id: templates.id,
      name: templates.name,
      version: templates.version,
      kind: templates.kind,
      status: templates.status,
      width: templates.width,
      height: templates.height,
      manifest: templates.manifest,
      overlay: templates.overlay,
    })
    .from(templates)
    .where(and(eq(templates.projectId, projectId), inArray(templates.status, [...statuses])))
    .orderBy(sql`${templates.status} = 'Testing' desc`, desc(templates.createdAt), desc(templates.id))
    .limit(1);
  return row ?? null;
}
