import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { recipientSchema } from "@/lib/campaigns/contract";
import { regenerateRecipientUrl } from "@/lib/campaigns/recipient-edits";

// POST …/recipients/{recipientId}/regenerate-url – a new personal URL; the old one answers 404
export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/recipients/{recipientId}/regenerate-url",
    operationId: "regenerateRecipientUrl",
    tag: "Campaigns",
    summary: "Give one recipient a new personal URL (a new token): the old URL answers 404 from then on; data, reach and thumbnails stay",
    access: { project: "campaign.write" },
    responses: { 200: { description: "The recipient with its new URL", schema: recipientSchema } },
  },
  async (ctx) => json(await regenerateRecipientUrl(ctx, { campaignId: ctx.params.campaignId, recipientId: ctx.params.recipientId })),
);
