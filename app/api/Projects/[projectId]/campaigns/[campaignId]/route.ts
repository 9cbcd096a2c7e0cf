import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { getCampaignDetail } from "@/lib/campaigns/campaigns";

// GET /api/Projects/{projectId}/campaigns/{campaignId} – the campaign, its fields, imports (progress, problems) and funnel
export const GET = withProjectRole<{ projectId: string; campaignId: string }>("campaign.read", async (ctx) => {
  return json(await getCampaignDetail(ctx, ctx.params.campaignId));
});
