import { withProjectRole } from "@/lib/api/handler";
import { exportRecipients } from "@/lib/campaigns/recipients";

// GET /api/Projects/{projectId}/campaigns/{campaignId}/export – recipient_id,email,url as CSV, streamed
export const GET = withProjectRole<{ projectId: string; campaignId: string }>("campaign.read", async (ctx) => {
  const { campaign, body } = await exportRecipients(ctx, ctx.params.campaignId);
  const filename = `campaign-${campaign.id}-recipients.csv`;
  return new Response(body, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
  });
});
