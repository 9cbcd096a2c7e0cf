import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { projectVerb } from "@/lib/services/verbs";
import { selectRows } from "@/lib/analytics/select-rows";
import { campaignRecipients, publicVideoShares, renders } from "@/lib/db/schema";
import { signRenderDownload } from "@/lib/renders/download-url";
import { thumbnailHtml } from "@/lib/renders/campaign-thumbnails";
import { shareUrl } from "@/lib/shares/shares";
import { getCampaignRowOrThrow, servedCampaignFields, type CampaignRow } from "./campaigns";
import { reachOfEvents } from "./get-campaign-funnel";
import type { ListRecipientsQuery } from "./contract";

// A campaign's recipients in the order they were first imported: their ids are time-ordered
// (recipient-ids.ts), so pages are keyed by id on the primary key and no extra index slows a
// million-row import (docs/adr/0147-recipient-order-and-edits.md).

/** A recipient's personal URL: the share's landing page with the recipient's token. */
export function recipientUrl(slug: string | null, token: string): string | null {
  return slug ? `${shareUrl(slug)}/${token}` : null;
}

/** The slug of the campaign's share now (a rotated slug moves every recipient's URL with it). */
export async function campaignShareSlug(db: Db, campaign: Pick<CampaignRow, "projectId" | "channel">): Promise<string | null> {
  const [share] = await db
    .select({ slug: publicVideoShares.slug })
    .from(publicVideoShares)
    .where(and(eq(publicVideoShares.projectId, campaign.projectId), eq(publicVideoShares.channel, campaign.channel)));
  return share?.slug ?? null;
}

/** A page's cursor is the last recipient's id. */
function decodeCursor(cursor: string): string {
  if (!isUuid(cursor)) throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  return cursor.toLowerCase();
}

type Reach = { opened: boolean; furthestPercent: number; completed: boolean; clicked: boolean };
const noReach: Reach = { opened: false, furthestPercent: 0, completed: false, clicked: false };

/** What the events of these viewer hashes show (bots left out), by hash. */
export async function reachOf(db: Db, projectId: string, viewerHashes: string[]): Promise<Map<string, Reach>> {
  if (viewerHashes.length === 0) return new Map();
  const rows = await selectRows<{ viewer_hash: string; opened: boolean; completed: boolean; clicked: boolean; furthest: number | string }>(
    db,
    sql`
      select e.viewer_hash, ${reachOfEvents}
      from analytics_events e
      where e.project_id = ${projectId} and e.viewer_hash in (select jsonb_array_elements_text(${JSON.stringify(viewerHashes)}::jsonb)) and not e.is_bot
      group by e.viewer_hash`,
  );
  return new Map(
    rows.map((row) => [
      row.viewer_hash,
      { opened: row.opened, completed: row.completed, clicked: row.clicked, furthestPercent: row.completed ? 100 : Math.round(Number(row.furthest) * 10) / 10 },
    ]),
  );
}

export type RecipientRow = typeof campaignRecipients.$inferSelect;

export function presentRecipient(row: RecipientRow, slug: string | null, reach: Reach = noReach) {
  return {
    id: row.id,
    externalId: row.externalId,
    email: row.email,
    data: row.data,
    url: recipientUrl(slug, row.token),
    line: row.line,
    createdAt: row.createdAt,
    reach,
  };
}

/** A page of the campaign's recipients, in first-import order, with their URL and reach. */
export const listRecipients = projectVerb("campaign.read", async (ctx, { campaignId, limit, cursor }: ListRecipientsQuery & { campaignId: string }) => {
  const { db } = ctx;
  const campaign = await getCampaignRowOrThrow(ctx, campaignId);
  const rows = await db
    .select()
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaign.id), cursor ? gt(campaignRecipients.id, decodeCursor(cursor)) : undefined))
    .orderBy(asc(campaignRecipients.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const [slug, reach] = await Promise.all([campaignShareSlug(db, campaign), reachOf(db, campaign.projectId, page.map((row) => row.viewerHash))]);
  return {
    items: page.map((row) => presentRecipient(row, slug, reach.get(row.viewerHash))),
    nextCursor: rows.length > limit ? page.at(-1)!.id : null,
  };
});

/** Rows per query of the export: pages of the same keyset, so memory stays flat whatever the size. */
const exportPageSize = 5000;

/** A CSV field: quoted when it holds a delimiter, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
function csvField(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The campaign has a thumbnail (of any status) for some recipient: the export then has their columns. */
async function hasThumbnails(db: Db, campaignId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: renders.id })
    .from(renders)
    .where(and(eq(renders.campaignId, campaignId), eq(renders.purpose, "thumbnail")))
    .limit(1);
  return row !== undefined;
}

type Thumbnail = { url: string; width: number | null; height: number | null };

/** Each recipient's latest thumbnail, when it is done: a signed URL (30 days) and its size. */
async function thumbnailsOf(db: Db, recipientIds: string[]): Promise<Map<string, Thumbnail>> {
  const latest = await db
    .selectDistinctOn([renders.recipientId], { id: renders.id, recipientId: renders.recipientId, status: renders.status, width: renders.width, height: renders.height })
    .from(renders)
    .where(and(inArray(renders.recipientId, recipientIds), eq(renders.purpose, "thumbnail")))
    .orderBy(renders.recipientId, desc(renders.createdAt));
  return new Map(
    latest
      .filter((render) => render.status === "done")
      .map((render) => [render.recipientId!, { url: signRenderDownload(render.id, "thumbnail").url, width: render.width, height: render.height }]),
  );
}

/**
 * `recipient_id,email,url`, then a column per field of the template the channel serves (in the
 * template's order, headed by the field's key, so the file imports back as it is), then, when
 * the campaign has thumbnails, `thumbnail_url` and `html` (the linked image for an email); one
 * line per recipient in first-import order, streamed page by page.
 */
export const exportRecipients = projectVerb("campaign.read", async (ctx, campaignId: string): Promise<{ campaign: CampaignRow; body: ReadableStream<Uint8Array> }> => {
  const { db } = ctx;
  const campaign = await getCampaignRowOrThrow(ctx, campaignId);
  const [slug, served, withThumbnails] = await Promise.all([campaignShareSlug(db, campaign), servedCampaignFields(ctx, campaign), hasThumbnails(db, campaign.id)]);
  const fieldKeys = (served?.fields ?? []).map((field) => field.key);
  const header = ["recipient_id", "email", "url", ...fieldKeys, ...(withThumbnails ? ["thumbnail_url", "html"] : [])];
  const encoder = new TextEncoder();
  let after: string | null = null;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${header.map(csvField).join(",")}\r\n`));
        return;
      }
      const rows = await db
        .select({ id: campaignRecipients.id, externalId: campaignRecipients.externalId, email: campaignRecipients.email, data: campaignRecipients.data, token: campaignRecipients.token })
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.campaignId, campaign.id), after === null ? undefined : gt(campaignRecipients.id, after)))
        .orderBy(asc(campaignRecipients.id))
        .limit(exportPageSize);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      after = rows.at(-1)!.id;
      const thumbnails = withThumbnails ? await thumbnailsOf(db, rows.map((row) => row.id)) : null;
      const lines = rows.map((row) => {
        const url = recipientUrl(slug, row.token);
        const values = [row.externalId, row.email, url, ...fieldKeys.map((key) => dataText(row.data[key]))];
        if (thumbnails) {
          const thumbnail = thumbnails.get(row.id);
          values.push(thumbnail?.url ?? null, thumbnail && url ? thumbnailHtml(url, thumbnail) : null);
        }
        return `${values.map(csvField).join(",")}\r\n`;
      });
      controller.enqueue(encoder.encode(lines.join("")));
    },
  });
  return { campaign, body };
});

/** A stored value as the file had it (imports store text; anything else is written as JSON). */
function dataText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The recipients of these ids within the campaign (tests and the console's lookups). */
export async function recipientsByExternalId(db: Db, campaignId: string, externalIds: string[]) {
  if (externalIds.length === 0) return [];
  return db.select().from(campaignRecipients).where(and(eq(campaignRecipients.campaignId, campaignId), inArray(campaignRecipients.externalId, externalIds)));
}
