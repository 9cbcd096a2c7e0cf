import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { channelSchema, shareSchema } from "@/lib/shares/contract";
import { restoreShare } from "@/lib/shares/shares";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/restore",
    operationId: "restoreShare",
    tag: "Shares",
    summary: "Restore a disabled share (no-op when already enabled)",
    access: { project: "share.write" },
    params: { channel: channelSchema },
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  async (ctx) => json(await restoreShare(ctx, ctx.params.channel)),
);
