import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { channelPins, templates, type Channel } from "@/lib/db/schema";

/** Why a channel serves its template: pinned to it, the newest Testing one, the Production one; or, for one viewer, their A/B variant (lib/releases/serve-variant.ts). */
export type ServedBecause = "pinned" | "newest-testing" | "production" | "variant";

/** What a share's page and player read of the template they play. */
export const servedTemplateColumns = {
  id: templates.id,
  name: templates.name,
  version: templates.version,
  kind: templates.kind,
  status: templates.status,
  width: templates.width,
  height: templates.height,
  manifest: templates.manifest,
  overlay: templates.overlay,
};

/**
 * The template a channel serves (docs/adr/0150-release-control.md): PROD serves the Production
 * template; DEV and STAGING serve the template pinned to them, else the newest Testing template,
 * else the Production one. Null when there is none. One query: the pin, when there is one, sorts
 * first.
 */
export async function findServedTemplate(db: Db, projectId: string, channel: Channel) {
  const statuses = channel === "PROD" ? (["Production"] as const) : (["Testing", "Production"] as const);
  const pinned = sql<boolean>`coalesce(${templates.id} = (select ${channelPins.templateId} from ${channelPins} where ${channelPins.projectId} = ${projectId} and ${channelPins.channel} = ${channel}), false)`;
  const [row] = await db
    .select({ ...servedTemplateColumns, pinned })
    .from(templates)
    .where(and(eq(templates.projectId, projectId), inArray(templates.status, [...statuses])))
    .orderBy(sql`${pinned} desc`, sql`${templates.status} = 'Testing' desc`, sql`${templates.createdAt} desc`, sql`${templates.id} desc`)
    .limit(1);
  if (!row) return null;
  const { pinned: isPinned, ...template } = row;
  return { ...template, because: servedBecause(isPinned, template.status) };
}

function servedBecause(pinned: boolean, status: string): ServedBecause {
  return pinned ? "pinned" : status === "Testing" ? "newest-testing" : "production";
}

export type ServedTemplate = NonNullable<Awaited<ReturnType<typeof findServedTemplate>>>;
