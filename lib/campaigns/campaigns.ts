import { and, desc, eq } from "drizzle-orm";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { campaignImports, campaigns, publicVideoShares, templates } from "@/lib/db/schema";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";
import { getTemplateDataRules } from "@/lib/templates/template-data-rules";
import { findServedTemplate } from "@/lib/templates/served-template";
import { getCampaignFunnel } from "./get-campaign-funnel";
import { campaignFields, type CampaignField } from "./row-rules";
import type { CreateCampaignInput, ImportMode, ImportProblem } from "./contract";

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignImportRow = typeof campaignImports.$inferSelect;

export function presentCampaign(row: CampaignRow) {
  return {
    id: row.id,
    projectId: row.projectId,
    channel: row.channel,
    name: row.name,
    fieldMap: row.fieldMap,
    recipientCount: row.recipientCount,
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
    mode: row.mode as ImportMode,
    fieldMap: row.fieldMap,
    rowsEstimated: row.rowsEstimated,
    rowsDone: row.rowsDone,
    rowsImported: row.rowsImported,
    rowsUpdated: row.rowsUpdated,
    rowsUnchanged: row.rowsUnchanged,
    rowsRemoved: row.rowsRemoved,
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

/** The campaign within its project, or a 404. */
export async function getCampaignRowOrThrow({ db, access }: Permitted<"campaign.read" | "campaign.write">, campaignId: string): Promise<CampaignRow> {
  const notFound = new NotFoundError(`Campaign ${campaignId} was not found.`);
  if (!isUuid(campaignId)) throw notFound;
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.projectId, access.project.id)));
  if (!row) throw notFound;
  return row;
}

/** A campaign on one channel's share (422 on `channel` when the project has none). */
export const createCampaign = projectVerb("campaign.write", async ({ actor, access, write }, input: CreateCampaignInput) =>
  write(async (tx) => {
    const [share] = await tx
      .select({ id: publicVideoShares.id })
      .from(publicVideoShares)
      .where(and(eq(publicVideoShares.projectId, access.project.id), eq(publicVideoShares.channel, input.channel)));
    if (!share) throw new ValidationError([{ path: "channel", message: `the project has no ${input.channel} share; create it first` }]);
    const [row] = await tx
      .insert(campaigns)
      .values({ projectId: access.project.id, channel: input.channel, name: input.name, fieldMap: input.fieldMap ?? {}, createdBy: actor.userId })
      .returning();
    return audited(presentCampaign(row!), {
      action: "campaign.created",
      targetType: "campaign",
      targetId: row!.id,
      data: { name: row!.name, channel: row!.channel },
    });
  }),
);

/** The project's campaigns, newest first, with their recipient counts. */
export const listCampaigns = projectVerb("campaign.read", async ({ db, access }) => {
  const rows = await db.select().from(campaigns).where(eq(campaigns.projectId, access.project.id)).orderBy(desc(campaigns.createdAt), desc(campaigns.id));
  return rows.map(presentCampaign);
});

/** How many imports the campaign page lists (newest first). */
const importsListed = 20;

/** The campaign, its fields, its imports (progress, problems) and its funnel. */
export const getCampaignDetail = projectVerb("campaign.read", async (ctx, campaignId: string) => {
  const { db } = ctx;
  const row = await getCampaignRowOrThrow(ctx, campaignId);
  const [imports, fields, funnel] = await Promise.all([
    db.select().from(campaignImports).where(eq(campaignImports.campaignId, row.id)).orderBy(desc(campaignImports.createdAt), desc(campaignImports.id)).limit(importsListed),
    servedCampaignFields(ctx, row),
    getCampaignFunnel(ctx, row),
  ]);
  return {
    ...presentCampaign(row),
    fields: (fields?.fields ?? []).map(({ key, required, maxLength }) => ({ key, required, maxLength })),
    imports: imports.map(presentImport),
    funnel,
  };
});

/**
 * The fields a campaign's rows fill: those of the template its channel serves now, required as
 * the share's own data leaves them (row-rules.ts). Null when the channel serves no template.
 */
export async function servedCampaignFields(
  { db }: Permitted<"campaign.read" | "campaign.write">,
  { projectId, channel }: Pick<CampaignRow, "projectId" | "channel">,
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
