import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { ValidationError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { projectVerb } from "@/lib/services/verbs";
import { selectRows } from "@/lib/analytics/select-rows";
import { campaignRecipients, publicVideoShares } from "@/lib/db/schema";
import { shareUrl } from "@/lib/shares/shares";
import { getCampaignRowOrThrow, type CampaignRow } from "./campaigns";
import { reachOfEvents } from "./get-campaign-funnel";
import type { ListRecipientsQuery } from "./contract";

// A campaign's recipients, in pages keyed by their recipient id (the unique index
// (campaign_id, external_id) serves the order: no extra index slows a million-row import).

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

const encodeCursor = (externalId: string) => Buffer.from(`r:${externalId}`, "utf8").toString("base64url");

function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith("r:")) throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  return text.slice(2);
}

type Reach = { opened: boolean; furthestPercent: number; completed: boolean; clicked: boolean };
const noReach: Reach = { opened: false, furthestPercent: 0, completed: false, clicked: false };

/** What the events of these viewer hashes show (bots left out), by hash. */
async function reachOf(db: Db, projectId: string, viewerHashes: string[]): Promise<Map<string, Reach>> {
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

/** A page of the campaign's recipients with their URL and reach. */
export const listRecipients = projectVerb("campaign.read", async (ctx, { campaignId, limit, cursor }: ListRecipientsQuery & { campaignId: string }) => {
  const { db } = ctx;
  const campaign = await getCampaignRowOrThrow(ctx, campaignId);
  const rows = await db
    .select()
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaign.id), cursor ? gt(campaignRecipients.externalId, decodeCursor(cursor)) : undefined))
    .orderBy(asc(campaignRecipients.externalId))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const [slug, reach] = await Promise.all([campaignShareSlug(db, campaign), reachOf(db, campaign.projectId, page.map((row) => row.viewerHash))]);
  return {
    items: page.map((row) => ({
      id: row.id,
      externalId: row.externalId,
      email: row.email,
      data: row.data,
      url: recipientUrl(slug, row.token),
      line: row.line,
      createdAt: row.createdAt,
      reach: reach.get(row.viewerHash) ?? noReach,
    })),
    nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.externalId) : null,
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

/** `recipient_id,email,url`, one line per recipient in recipient-id order, streamed page by page. */
export const exportRecipients = projectVerb("campaign.read", async (ctx, campaignId: string): Promise<{ campaign: CampaignRow; body: ReadableStream<Uint8Array> }> => {
  const { db } = ctx;
  const campaign = await getCampaignRowOrThrow(ctx, campaignId);
  const slug = await campaignShareSlug(db, campaign);
  const encoder = new TextEncoder();
  let after: string | null = null;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode("recipient_id,email,url\r\n"));
        return;
      }
      const rows = await db
        .select({ externalId: campaignRecipients.externalId, email: campaignRecipients.email, token: campaignRecipients.token })
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.campaignId, campaign.id), after === null ? undefined : gt(campaignRecipients.externalId, after)))
        .orderBy(asc(campaignRecipients.externalId))
        .limit(exportPageSize);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      after = rows.at(-1)!.externalId;
      const lines = rows.map((row) => `${csvField(row.externalId)},${csvField(row.email)},${csvField(recipientUrl(slug, row.token))}\r\n`);
      controller.enqueue(encoder.encode(lines.join("")));
    },
  });
  return { campaign, body };
});

/** The recipients of these ids within the campaign (tests and the console's lookups). */
export async function recipientsByExternalId(db: Db, campaignId: string, externalIds: string[]) {
  if (externalIds.length === 0) return [];
  return db.select().from(campaignRecipients).where(and(eq(campaignRecipients.campaignId, campaignId), inArray(campaignRecipients.externalId, externalIds)));
}
