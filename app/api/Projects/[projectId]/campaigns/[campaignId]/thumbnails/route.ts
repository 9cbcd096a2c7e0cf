import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { listCampaignThumbnails, queueCampaignThumbnails } from "@/lib/renders/campaign-thumbnails";
import { listThumbnailsQuery } from "@/lib/renders/contract";

type Params = { projectId: string; campaignId: string };

// POST …/campaigns/{campaignId}/thumbnails – queue an email thumbnail GIF (play button, linking to the recipient's URL) per recipient
export const POST = withProjectRole<Params>("render.create", async (ctx) => {
  return json(await queueCampaignThumbnails(ctx, ctx.params.campaignId), 202);
});

// GET …/campaigns/{campaignId}/thumbnails?cursor=&limit= – each recipient's thumbnail, its signed URL and the email HTML
export const GET = withProjectRole<Params>("render.read", async (ctx) => {
  const page = parseInput(listThumbnailsQuery, searchParamsObject(ctx.req));
  return json(await listCampaignThumbnails(ctx, { campaignId: ctx.params.campaignId, ...page }));
});
