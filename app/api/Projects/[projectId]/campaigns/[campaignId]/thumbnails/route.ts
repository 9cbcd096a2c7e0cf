import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listCampaignThumbnails, queueCampaignThumbnails } from "@/lib/renders/campaign-thumbnails";
import { listThumbnailsQuery, queuedThumbnailsSchema, thumbnailPageSchema } from "@/lib/renders/contract";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    operationId: "queueCampaignThumbnails",
    tag: "Campaigns",
    summary:
      "Queue an email thumbnail per recipient: a 3 s GIF loop with a play button, of the template the campaign's share serves with the recipient's data; only recipients without one (or whose last one failed)",
    access: { project: "render.create" },
    responses: { 202: { description: "Queued", schema: queuedThumbnailsSchema } },
    errors: { 409: "The campaign's channel has no share or no template" },
  },
  async (ctx) => json(await queueCampaignThumbnails(ctx, ctx.params.campaignId), 202),
);

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    operationId: "listCampaignThumbnails",
    tag: "Campaigns",
    summary: "The campaign's recipients with their thumbnail: status, signed URL (30 days), recipient URL and the HTML of a linked image for an email",
    access: { project: "render.read" },
    query: listThumbnailsQuery,
    responses: { 200: { description: "A page of recipients", schema: thumbnailPageSchema } },
  },
  async (ctx) => json(await listCampaignThumbnails(ctx, { campaignId: ctx.params.campaignId, ...ctx.query })),
);
