import { and, desc, eq, sql } from "drizzle-orm";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import { isUuid, type ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { campaignImports, campaigns, publicVideoShares, templates, type Channel } from "@/lib/db/schema";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";
import { getTemplateDataRules } from "@/lib/templates/template-data-rules";
import { findServedTemplate } from "@/lib/templates/served-template";
import { getCampaignFunnel } from "./get-campaign-funnel";
import { campaignFields, type CampaignField } from "./row-rules";
import type { CreateCampaignInput, ImportProblem } from "./contract";

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignImportRow = typeof campaignImports.$inferSelect;

export function presentCampaign(row: CampaignRow, recipientCount: number) {
  return {
    id: row.id,
    projectId: row.projectId,
    channel: row.channel,
    name: row.name,
    fieldMap: row.fieldMap,
    recipientCount,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
  };
}

export function presentImport(row: CampaignImportRow) {
  return {
    id: row.id,
    campaignId: row.campaignId,
    source: row.source as "csv" | "json",
    sha256: row.sha256,
    status: row.status as "running" | "completed" | "failed",
    bytes: row.bytes,
    rowsEstimated: row.rowsEstimated,
    rowsDone: row.rowsDone,
    rowsImported: row.rowsImported,
    rowsRefused: row.rowsRefused,
    rowsDuplicate: row.rowsDuplicate,
    problems: row.problems as ImportProblem[],
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    completedAt: row.completedAt,
  };
}

export type CampaignImport = ReturnType<typeof presentImport>;

/** Recipients per campaign: the sum of its imports' new rows (an import that failed took its rows back). */
// Written out: drizzle leaves a lone table's columns unqualified, and "id" would be the import's.
const recipientCount = sql<number>`(select coalesce(sum(ci.rows_imported), 0)::int from campaign_imports ci where ci.campaign_id = "campaigns"."id")`;

/** The campaign within its project, or a 404. */
export async function getCampaignRowOrThrow(db: Db, { project }: ProjectAccess, campaignId: string): Promise<CampaignRow> {
  const notFound = new NotFoundError(`Campaign ${campaignId} was not found.`);
  if (!isUuid(campaignId)) throw notFound;
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.projectId, project.id)));
  if (!row) throw notFound;
  return row;
}

export async function createCampaign(db: Db, actor: Actor, access: ProjectAccess, input: CreateCampaignInput) {
  return db.transaction(async (tx) => {
    const [share] = await tx
      .select({ id: publicVideoShares.id })
      .from(publicVideoShares)
      .where(and(eq(publicVideoShares.projectId, access.project.id), eq(publicVideoShares.channel, input.channel)));
    if (!share) throw new ValidationError([{ path: "channel", message: `the project has no ${input.channel} share; create it first` }]);
    const [row] = await tx
      .insert(campaigns)
      .values({ projectId: access.project.id, channel: input.channel, name: input.name, fieldMap: input.fieldMap ?? {}, createdBy: actor.userId })
      .returning();
    await recordProjectAuditEvent(tx, actor, access, {
      action: "campaign.created",
      targetType: "campaign",
      targetId: row!.id,
      data: { name: row!.name, channel: row!.channel },
    });
    return presentCampaign(row!, 0);
  });
}

/** The project's campaigns, newest first, with their recipient counts. */
export async function listCampaigns(db: Db, { project }: ProjectAccess) {
  const rows = await db
    .select({ campaign: campaigns, recipientCount })
    .from(campaigns)
    .where(eq(campaigns.projectId, project.id))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
  return rows.map((row) => presentCampaign(row.campaign, row.recipientCount));
}

/** How many imports the campaign page lists (newest first). */
const importsListed = 20;

export async function getCampaignDetail(db: Db, access: ProjectAccess, campaignId: string) {
  const row = await getCampaignRowOrThrow(db, access, campaignId);
  const [imports, [count], fields, funnel] = await Promise.all([
    db.select().from(campaignImports).where(eq(campaignImports.campaignId, row.id)).orderBy(desc(campaignImports.createdAt), desc(campaignImports.id)).limit(importsListed),
    db.select({ recipientCount }).from(campaigns).where(eq(campaigns.id, row.id)),
    servedCampaignFields(db, row.projectId, row.channel),
    getCampaignFunnel(db, row),
  ]);
  return {
    ...presentCampaign(row, count?.recipientCount ?? 0),
    fields: (fields?.fields ?? []).map(({ key, required, maxLength }) => ({ key, required, maxLength })),
    imports: imports.map(presentImport),
    funnel,
  };
}

/**
 * The fields a campaign's rows fill: those of the template its channel serves now, required as
 * the share's own data leaves them (row-rules.ts). Null when the channel serves no template.
 */
export async function servedCampaignFields(
  db: Db,
  projectId: string,
  channel: Channel,
): Promise<{ templateId: string; fields: CampaignField[]; imageFiles: Set<string> } | null> {
  const served = await findServedTemplate(db, projectId, channel);
  if (!served) return null;
  const [[template], [share], rules] = await Promise.all([
    db.select({ fields: templates.fields }).from(templates).where(eq(templates.id, served.id)),
    db
      .select({ data: publicVideoShares.personalizationData })
      .from(publicVideoShares)
      .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, channel))),
    getTemplateDataRules(db, served.id),
  ]);
  const stored = (template?.fields ?? []) as TemplateField[];
  return {
    templateId: served.id,
    fields: campaignFields(stored, (served.manifest as BindingManifest | null) ?? null, share?.data ?? null),
    imageFiles: rules.imageFiles,
  };
}
