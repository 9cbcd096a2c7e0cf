import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { createCampaign, listCampaigns } from "@/lib/campaigns/campaigns";
import { createCampaignBody } from "@/lib/campaigns/contract";

// GET /api/Projects/{projectId}/campaigns – the project's campaigns, newest first, with their recipient counts
export const GET = withProjectRole("campaign.read", async (ctx) => {
  return json({ items: await listCampaigns(ctx) });
});

// POST /api/Projects/{projectId}/campaigns – a campaign on one channel's share
export const POST = withProjectRole("campaign.write", async (ctx) => {
  const input = await readJsonBody(ctx.req, createCampaignBody);
  return json(await createCampaign(ctx, input), 201);
});
