import { isDeepStrictEqual } from "node:util";
import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { getConfig } from "@/lib/config";
import { schema } from "@/lib/db";
import { selectRows } from "@/lib/analytics/select-rows";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { assignVariant } from "@/lib/experiments/assign";
import { viewerKey } from "@/lib/releases/serve-variant";
import { shareVariantRows } from "@/lib/releases/variants";
import { recipientViewerHash } from "@/lib/campaigns/import-recipients";
import { findServedTemplate } from "@/lib/templates/served-template";
import { signRenderDownload } from "./download-url";
import { enqueueRenders } from "./queue";

// Email thumbnails of a campaign: one short GIF per recipient (purpose "thumbnail": small, a
// few seconds, a play button drawn on it) rendered from the template the campaign's share
// serves, with the recipient's data merged over the share's — what the recipient's URL plays.

/** Rows inserted (and jobs sent) per statement. */
const batchSize = 1000;

async function campaignContext({ db, access }: Permitted<"render.create" | "render.read">, campaignId: string) {
  const projectId = access.project.id;
  const notFound = new NotFoundError(`Campaign ${campaignId} was not found.`);
  if (!isUuid(campaignId)) throw notFound;
  const [campaign] = await db
    .select()
    .from(schema.campaigns)
    .where(and(eq(schema.campaigns.id, campaignId), eq(schema.campaigns.projectId, projectId)));
  if (!campaign) throw notFound;
  const [share] = await db
    .select()
    .from(schema.publicVideoShares)
    .where(and(eq(schema.publicVideoShares.projectId, projectId), eq(schema.publicVideoShares.channel, campaign.channel)));
  return { campaign, share: share ?? null };
}

/**
 * Queues a thumbnail render for every recipient that has none yet of the template their page plays now (the served one, or their A/B variant) with
 * the data the recipient's page plays now (none, its last one failed, or the recipient's or the
 * share's data, or the template, changed since): calling it again after more recipients were
 * imported, or after a re-import changed some, renders only theirs. Each batch commits
 * on its own and wakes the worker, which starts on the first while the next are inserted; the
 * trail records the queueing once (`campaign.thumbnails_queued`, with the count), in the last
 * batch's transaction, and not at all when nothing was queued.
 */
export const queueCampaignThumbnails = projectVerb("render.create", async (ctx, campaignId: string) => {
  const project = ctx.access.project;
  const { campaign, share } = await campaignContext(ctx, campaignId);
  if (!share) throw new ConflictError(`The campaign's channel ${campaign.channel} has no share yet; create it first.`);
  const template = await findServedTemplate(ctx.db, project.id, campaign.channel);
  if (!template) throw new ConflictError(`The ${campaign.channel} share serves no template yet; deploy one first.`);
  const shareData = JSON.stringify(share.personalizationData ?? {});
  // In the share's locale, as the recipient's page shows the values; no captions (a 3 s loop in an email).
  // While the share runs an A/B test, each recipient's thumbnail is of the variant their page plays.
  const variants = (await shareVariantRows(ctx.db, share.id)).map((row) => row.variant);
  const templateFor = (recipientId: string) =>
    variants.length > 0 ? assignVariant(share.id, viewerKey({ viewerHash: recipientViewerHash(project.id, recipientId) })!, variants)!.templateId : template.id;
  let queued = 0;
  for (let after = "00000000-0000-0000-0000-000000000000"; ; ) {
    const page = await ctx.db
      .select({ id: schema.campaignRecipients.id })
      .from(schema.campaignRecipients)
      .where(and(eq(schema.campaignRecipients.campaignId, campaign.id), gt(schema.campaignRecipients.id, after)))
      .orderBy(asc(schema.campaignRecipients.id))
      .limit(batchSize);
    const last = page.length < batchSize;
    const assigned = JSON.stringify(page.map((recipient) => ({ recipient_id: recipient.id, template_id: templateFor(recipient.id) })));
    const inserted = await ctx.write(async (tx) => {
      const result = await tx.execute<{ id: string; recipient_id: string }>(sql`
        insert into renders (project_id, template_id, campaign_id, recipient_id, purpose, format, locale, data, created_by)
        select r.project_id, m.template_id, r.campaign_id, r.id, 'thumbnail', 'gif', ${share.locale}, ${shareData}::jsonb || r.data, ${ctx.actor.userId}
        from json_to_recordset(${assigned}::json) as m(recipient_id uuid, template_id uuid)
        join campaign_recipients r on r.id = m.recipient_id and r.project_id = ${project.id}
        where not exists (
          select 1 from renders x
          where x.recipient_id = r.id and x.purpose = 'thumbnail' and x.template_id = m.template_id and x.status <> 'failed'
            and x.data = ${shareData}::jsonb || r.data and x.locale is not distinct from ${share.locale}
        )
        returning id, recipient_id`);
      // postgres.js answers the rows, PGlite {rows}.
      const rows = Array.isArray(result) ? result : (result as { rows: { id: string; recipient_id: string }[] }).rows;
      const total = queued + rows.length;
      if (!last || total === 0) return audited(rows, []); // more batches follow, or nothing was queued
      return audited(rows, {
        action: "campaign.thumbnails_queued",
        targetType: "campaign",
        targetId: campaign.id,
        data: { name: campaign.name, channel: campaign.channel, templateId: template.id, queued: total },
      });
    });
    queued += inserted.length;
    if (inserted.length > 0) await enqueueRenders(inserted.map((row) => row.id));
    if (last) break;
    after = page.at(-1)!.id;
  }
  const [{ recipients }] = (await ctx.db
    .select({ recipients: sql<number>`count(*)::int` })
    .from(schema.campaignRecipients)
    .where(eq(schema.campaignRecipients.campaignId, campaign.id))) as [{ recipients: number }];
  return { campaignId: campaign.id, templateId: template.id, recipients, queued };
});

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The HTML to paste into an email: the thumbnail, linked to the recipient's URL (also a column of the campaign's export). */
export function thumbnailHtml(recipientUrl: string, thumbnail: { url: string; width: number | null; height: number | null }): string {
  return `<a href="${escapeHtml(recipientUrl)}"><img src="${escapeHtml(thumbnail.url)}" width="${thumbnail.width}" height="${thumbnail.height}" alt="Play the video"></a>`;
}

/**
 * A page of the campaign's recipients (by id, after `cursor`) with their latest thumbnail: its
 * status, its signed URL (30 days) and the HTML to paste into an email, a linked image.
 */
export const listCampaignThumbnails = projectVerb("render.read", async (ctx, { campaignId, ...page }: { campaignId: string; cursor?: string; limit: number }) => {
  const { db, access } = ctx;
  const project = access.project;
  const { campaign, share } = await campaignContext(ctx, campaignId);
  const recipients = await db
    .select({ id: schema.campaignRecipients.id, email: schema.campaignRecipients.email, token: schema.campaignRecipients.token, data: schema.campaignRecipients.data })
    .from(schema.campaignRecipients)
    .where(and(eq(schema.campaignRecipients.campaignId, campaign.id), page.cursor ? gt(schema.campaignRecipients.id, page.cursor) : undefined))
    .orderBy(asc(schema.campaignRecipients.id))
    .limit(page.limit);
  const renders = recipients.length
    ? await db
        .selectDistinctOn([schema.renders.recipientId])
        .from(schema.renders)
        .where(and(eq(schema.renders.projectId, project.id), eq(schema.renders.purpose, "thumbnail"), inArray(schema.renders.recipientId, recipients.map((r) => r.id))))
        .orderBy(schema.renders.recipientId, desc(schema.renders.createdAt))
    : [];
  const byRecipient = new Map(renders.map((render) => [render.recipientId!, render]));
  const served = share ? await findServedTemplate(db, project.id, campaign.channel) : null;
  const variants = share ? (await shareVariantRows(db, share.id)).map((row) => row.variant.templateId) : [];
  const current = served && share ? { templateIds: variants.length > 0 ? variants : [served.id], shareData: share.personalizationData ?? {} } : null;
  const base = getConfig().publicBaseUrl;
  const items = recipients.map((recipient) => {
    const render = byRecipient.get(recipient.id);
    const recipientUrl = share ? `${base}/v/${share.slug}/${recipient.token}` : null;
    const thumbnail = render?.status === "done" ? signRenderDownload(render.id, "thumbnail") : null;
    return {
      recipientId: recipient.id,
      email: recipient.email,
      recipientUrl,
      renderId: render?.id ?? null,
      status: render?.status ?? null,
      error: render?.error ?? null,
      outdated: thumbnail !== null && isOutdated(render!, current, recipient.data),
      thumbnailUrl: thumbnail?.url ?? null,
      expiresAt: thumbnail?.expiresAt ?? null,
      html:
        thumbnail && recipientUrl ? thumbnailHtml(recipientUrl, { url: thumbnail.url, width: render!.width, height: render!.height }) : null,
    };
  });
  return { items, nextCursor: recipients.length === page.limit ? recipients.at(-1)!.id : null, summary: await thumbnailSummary(ctx, campaign.id, current) };
});

/** The templates a recipient's page may play now (the served one, or a running A/B test's variants) and the share's data. */
type ServedNow = { templateIds: string[]; shareData: Record<string, unknown> } | null;

/** A thumbnail of another template than the one served now, or of other data than the recipient's page plays now (nothing served: nothing to compare with, not outdated). */
function isOutdated(render: { templateId: string; data: Record<string, unknown> }, current: ServedNow, recipientData: Record<string, unknown>) {
  if (!current) return false;
  // The recipient's data over the share's, one level deep: what the queueing's jsonb `||` stored.
  return !current.templateIds.includes(render.templateId) || !isDeepStrictEqual(render.data, { ...current.shareData, ...recipientData });
}

/**
 * Each recipient of the campaign counted once, by the status of its latest thumbnail
 * (renders_campaign_idx); `outdated`: the done ones that show another template or other data than
 * the recipient's page plays now (`current`; none when the channel serves nothing).
 */
async function thumbnailSummary({ db }: Permitted<"render.read">, campaignId: string, current: ServedNow) {
  const stale = current
    ? sql`(l.template_id <> all(${`{${current.templateIds.join(",")}}`}::uuid[]) or l.data <> ${JSON.stringify(current.shareData)}::jsonb || r.data)`
    : sql`false`;
  const [counts] = await selectRows<{ recipients: number; done: number; pending: number; failed: number; outdated: number }>(
    db,
    sql`
      with latest as (
        select distinct on (recipient_id) recipient_id, status, template_id, data from renders
        where campaign_id = ${campaignId} and purpose = 'thumbnail'
        order by recipient_id, created_at desc
      )
      select
        (select count(*)::int from campaign_recipients where campaign_id = ${campaignId}) as recipients,
        count(*) filter (where l.status = 'done')::int as done,
        count(*) filter (where l.status in ('queued', 'rendering'))::int as pending,
        count(*) filter (where l.status = 'failed')::int as failed,
        count(*) filter (where l.status = 'done' and ${stale})::int as outdated
      from latest l join campaign_recipients r on r.id = l.recipient_id`,
  );
  return {
    recipients: counts?.recipients ?? 0,
    done: counts?.done ?? 0,
    pending: counts?.pending ?? 0,
    failed: counts?.failed ?? 0,
    outdated: counts?.outdated ?? 0,
  };
}
