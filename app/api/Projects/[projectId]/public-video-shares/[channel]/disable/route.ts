import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { channelSchema, shareSchema } from "@/lib/shares/contract";
import { disableShare } from "@/lib/shares/shares";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/disable",
    operationId: "disableShare",
    tag: "Shares",
    summary: "Disable the share: its URL answers 404 (no-op when already disabled)",
    access: { project: "share.write" },
    params: { channel: channelSchema },
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  async (ctx) => json(await disableShare(ctx, ctx.params.channel)),
);
