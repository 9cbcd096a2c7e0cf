import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { channelSchema, putShareBody, savedShareSchema } from "@/lib/shares/contract";
import { putShare } from "@/lib/shares/shares";

export const PUT = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}",
    operationId: "putShare",
    tag: "Shares",
    summary: "Create or replace the channel's share (idempotent; omitted optional fields become null)",
    access: { project: "share.write" },
    params: { channel: channelSchema },
    body: putShareBody,
    responses: {
      200: { description: "The share was replaced (or already had this configuration), with its data's warnings", schema: savedShareSchema },
      201: { description: "The share was created, Enabled, with a new slug, with its data's warnings", schema: savedShareSchema },
    },
  },
  async (ctx) => {
    const { share, created, warnings } = await putShare(ctx, { channel: ctx.params.channel, ...ctx.body });
    return json({ ...share, warnings }, created ? 201 : 200);
  },
);
