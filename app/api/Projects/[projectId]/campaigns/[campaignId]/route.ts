import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getCampaignDetail } from "@/lib/campaigns/campaigns";
import { campaignDetailSchema } from "@/lib/campaigns/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}",
    operationId: "getCampaign",
    tag: "Campaigns",
    summary: "One campaign: the fields its rows fill, its imports (progress, problems with line numbers) and its funnel",
    access: { project: "campaign.read" },
    responses: { 200: { description: "The campaign", schema: campaignDetailSchema } },
  },
  async (ctx) => json(await getCampaignDetail(ctx, ctx.params.campaignId)),
);
