import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { campaignRecipients, campaigns } from "@/lib/db/schema";
import type { PublicShare } from "@/lib/shares/public-share";

/** A recipient token: 32 random bytes, base64url (43 characters). */
export const recipientTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export type ShareRecipient = { id: string; data: Record<string, unknown> };

/**
 * The recipient a personal URL `/v/{slug}/{token}` names: its token must belong to a campaign of
 * the share's own project and channel. Null otherwise (an unknown token, or one of another
 * share), which every caller answers as it answers an unavailable share.
 */
export async function findShareRecipient(db: Db, share: Pick<PublicShare, "projectId" | "channel">, token: string): Promise<ShareRecipient | null> {
  if (!recipientTokenPattern.test(token)) return null;
  const [row] = await db
    .select({ id: campaignRecipients.id, data: campaignRecipients.data })
    .from(campaignRecipients)
    .innerJoin(campaigns, eq(campaigns.id, campaignRecipients.campaignId))
    .where(and(eq(campaignRecipients.token, token), eq(campaigns.projectId, share.projectId), eq(campaigns.channel, share.channel)));
  return row ?? null;
}
