import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { createCampaign, listCampaigns } from "@/lib/campaigns/campaigns";
import { campaignSchema, createCampaignBody } from "@/lib/campaigns/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns",
    operationId: "listCampaigns",
    tag: "Campaigns",
    summary: "List the project's campaigns, newest first, with their recipient counts",
    access: { project: "campaign.read" },
    responses: { 200: { description: "The campaigns", schema: listOf(campaignSchema) } },
  },
  async (ctx) => json({ items: await listCampaigns(ctx) }),
);

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns",
    operationId: "createCampaign",
    tag: "Campaigns",
    summary: "Create a campaign: personalized links to one channel's share, one per recipient",
    access: { project: "campaign.write" },
    body: createCampaignBody,
    responses: { 201: { description: "The campaign", schema: campaignSchema } },
  },
  async (ctx) => json(await createCampaign(ctx, ctx.body), 201),
);
