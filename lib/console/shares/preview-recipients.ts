import { and, asc, desc, eq } from "drizzle-orm";
import { can } from "@/lib/auth/permissions";
import { campaignRecipients, campaigns, type Channel } from "@/lib/db/schema";
import type { ProjectContext } from "@/lib/services/verbs";
import { playedData } from "@/shared/templates/data-rules";

// The share editor's title preview: recipients of the campaigns on the share's channel, whose
// data fills the title's {{placeholders}} as their personal page does.

/** How many recipients the preview offers: enough to try a few, small enough for a select. */
export const previewRecipientLimit = 50;

export type PreviewRecipient = { id: string; label: string; data: Record<string, string> };

/**
 * The channel's first recipients, newest campaign first, in each campaign's recipient-id order
 * (its unique index: no sort of a million-row campaign); none for a role that may not read campaigns.
 */
export async function loadPreviewRecipients({ db, access }: ProjectContext, channel: Channel): Promise<PreviewRecipient[]> {
  if (!can(access.role, "campaign.read")) return [];
  const channelCampaigns = await db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.projectId, access.project.id), eq(campaigns.channel, channel)))
    .orderBy(desc(campaigns.createdAt));
  const found: PreviewRecipient[] = [];
  for (const campaign of channelCampaigns) {
    if (found.length >= previewRecipientLimit) break;
    const rows = await db
      .select({ id: campaignRecipients.id, externalId: campaignRecipients.externalId, email: campaignRecipients.email, data: campaignRecipients.data })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id))
      .orderBy(asc(campaignRecipients.externalId))
      .limit(previewRecipientLimit - found.length);
    found.push(...rows.map((row) => ({ id: row.id, label: `${campaign.name}: ${row.email || row.externalId}`, data: playedData(row.data) })));
  }
  return found;
}
