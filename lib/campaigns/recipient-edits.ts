import { randomBytes } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { campaignRecipients, campaigns } from "@/lib/db/schema";
import { getCampaignRowOrThrow, servedCampaignFields, type CampaignRow } from "./campaigns";
import { campaignShareSlug, presentRecipient, reachOf, type RecipientRow } from "./recipients";
import { checkRow, planColumns } from "./row-rules";
import type { ImportProblem, RecipientEditInput } from "./contract";

// One recipient changed by hand: its email or data edited (checked as an import row is), its
// URL made anew (the old one answers 404), or the recipient removed (docs/adr/0147).

type RecipientRef = { campaignId: string; recipientId: string };

/** The recipient within the campaign (itself within the caller's project), or a 404. */
async function getRecipientRowOrThrow(ctx: Permitted<"campaign.write">, { campaignId, recipientId }: RecipientRef) {
  const campaign = await getCampaignRowOrThrow(ctx, campaignId);
  const notFound = new NotFoundError(`Recipient ${recipientId} was not found in campaign ${campaign.id}.`);
  if (!isUuid(recipientId)) throw notFound;
  const [row] = await ctx.db
    .select()
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.id, recipientId), eq(campaignRecipients.campaignId, campaign.id)));
  if (!row) throw notFound;
  return { campaign, row };
}

/** The recipient as the list shows it, with its URL and reach. */
async function presentOne(ctx: Permitted<"campaign.write">, campaign: CampaignRow, row: RecipientRow) {
  const [slug, reach] = await Promise.all([campaignShareSlug(ctx.db, campaign), reachOf(ctx.db, campaign.projectId, [row.viewerHash])]);
  return presentRecipient(row, slug, reach.get(row.viewerHash));
}

const auditSubject = (campaign: CampaignRow, row: RecipientRow) => ({ name: campaign.name, channel: campaign.channel, recipientId: row.id });

/**
 * The recipient's data after the edit, checked by the import's row rules: each key named must be
 * a field of the template the channel serves; a value the template refuses (a strict field's,
 * a required field emptied) is a 422 naming `data.<key>`; what it adapts comes back as warnings.
 */
async function editedData(ctx: Permitted<"campaign.write">, campaign: CampaignRow, current: Record<string, unknown>, edit: Record<string, string | null>) {
  const served = await servedCampaignFields(ctx, campaign);
  if (!served) throw new ConflictError(`The ${campaign.channel} channel serves no template yet: its fields cannot be checked.`, "no_template");
  const keys = Object.keys(edit);
  const fieldKeys = new Set(served.fields.map((field) => field.key));
  const unknown = keys.filter((key) => !fieldKeys.has(key));
  if (unknown.length > 0) {
    const fields = [...fieldKeys].join(", ") || "none";
    throw new ValidationError(unknown.map((key) => ({ path: `data.${key}`, message: `is not a field of the template (its fields: ${fields})` })));
  }
  // The keys are the fields' own: each is its column, exactly.
  const plan = planColumns(keys, served.fields, {}, null, served.imageFiles);
  const verdict = checkRow(
    keys.map((key) => edit[key] ?? ""),
    plan,
    null,
  );
  if (!verdict.ok) throw new ValidationError(verdict.problems.map((problem) => ({ path: `data.${problem.column ?? ""}`, message: problem.message })));
  const data: Record<string, unknown> = { ...current };
  for (const key of keys) delete data[key];
  return { data: { ...data, ...verdict.row.data }, warnings: verdict.warnings };
}

/** The email as an import stores it: trimmed, null when empty; 422 when it could not be stored. */
function editedEmail(email: string | null): string | null {
  const trimmed = email?.trim() ?? "";
  if (trimmed.includes("\u0000")) throw new ValidationError([{ path: "email", message: "must not contain a NUL character" }]);
  return trimmed || null;
}

/**
 * PATCH …/recipients/{recipientId}: its email and/or data; its id, token and URL stay. A
 * recipient known by its email (no id of its own) is known by the new one from then on; 409 when
 * another recipient of the campaign is known by it.
 */
export const updateRecipient = projectVerb("campaign.write", async (ctx, { edit, ...ref }: RecipientRef & { edit: RecipientEditInput }) => {
  const { campaign, row } = await getRecipientRowOrThrow(ctx, ref);
  const changes: Partial<RecipientRow> = {};
  let warnings: ImportProblem[] = [];
  const changed: string[] = [];
  if (edit.email !== undefined) {
    const email = editedEmail(edit.email);
    if (email !== row.email) {
      changes.email = email;
      changed.push("email");
      const keyedByEmail = row.email !== null && row.externalId === row.email.toLowerCase();
      if (keyedByEmail && email !== null) changes.externalId = email.toLowerCase();
    }
  }
  if (edit.data !== undefined) {
    const result = await editedData(ctx, campaign, row.data, edit.data);
    warnings = result.warnings;
    const before = row.data;
    const after = result.data;
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) if (before[key] !== after[key]) changed.push(`data.${key}`);
    if (changed.some((name) => name.startsWith("data."))) changes.data = after;
  }
  if (changes.externalId !== undefined && changes.externalId !== row.externalId) {
    const [taken] = await ctx.db
      .select({ id: campaignRecipients.id })
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.externalId, changes.externalId), ne(campaignRecipients.id, row.id)));
    if (taken) throw new ConflictError(`Another recipient of this campaign (${taken.id}) has the email ${changes.email}.`, "recipient_exists");
  }
  const updated = await ctx.write(async (tx) => {
    if (changed.length === 0) return audited(row, []);
    const [saved] = await tx.update(campaignRecipients).set(changes).where(eq(campaignRecipients.id, row.id)).returning();
    return audited(saved!, {
      action: "campaign.recipient_updated",
      targetType: "campaign",
      targetId: campaign.id,
      // The fields' names, not their values: a recipient's data is personal.
      data: { ...auditSubject(campaign, row), changed },
    });
  });
  return { ...(await presentOne(ctx, campaign, updated)), warnings };
});

/** DELETE …/recipients/{recipientId}: the recipient goes with its thumbnails; its URL answers 404. */
export const removeRecipient = projectVerb("campaign.write", async (ctx, ref: RecipientRef) => {
  const { campaign, row } = await getRecipientRowOrThrow(ctx, ref);
  await ctx.write(async (tx) => {
    const removed = await tx.delete(campaignRecipients).where(eq(campaignRecipients.id, row.id)).returning({ id: campaignRecipients.id });
    if (removed.length > 0) await tx.update(campaigns).set({ recipientCount: sql`${campaigns.recipientCount} - 1` }).where(eq(campaigns.id, campaign.id));
    return audited(null, { action: "campaign.recipient_removed", targetType: "campaign", targetId: campaign.id, data: auditSubject(campaign, row) });
  });
});

/** POST …/recipients/{recipientId}/regenerate-url: a new token, so a URL that leaked stops working (404); reach and thumbnails stay. */
export const regenerateRecipientUrl = projectVerb("campaign.write", async (ctx, ref: RecipientRef) => {
  const { campaign, row } = await getRecipientRowOrThrow(ctx, ref);
  const updated = await ctx.write(async (tx) => {
    const [saved] = await tx
      .update(campaignRecipients)
      .set({ token: randomBytes(32).toString("base64url") })
      .where(eq(campaignRecipients.id, row.id))
      .returning();
    return audited(saved!, { action: "campaign.recipient_url_regenerated", targetType: "campaign", targetId: campaign.id, data: auditSubject(campaign, row) });
  });
  return presentOne(ctx, campaign, updated);
});
