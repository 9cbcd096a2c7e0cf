import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { channelSchema, rotatedSlugSchema } from "@/lib/shares/contract";
import { rotateShareSlug } from "@/lib/shares/shares";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/rotate-slug",
    operationId: "rotateShareSlug",
    tag: "Shares",
    summary: "Give the share a new slug; the previous URL answers 404 forever",
    access: { project: "share.write" },
    params: { channel: channelSchema },
    responses: { 200: { description: "The previous slug, the new one and the share", schema: rotatedSlugSchema } },
  },
  async (ctx) => json(await rotateShareSlug(ctx, ctx.params.channel)),
);
