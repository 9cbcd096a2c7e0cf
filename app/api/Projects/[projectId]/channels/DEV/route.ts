import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { pinDev } from "@/lib/releases/channels";
import { channelServingSchema, pinBody } from "@/lib/releases/contract";

export const PUT = defineRoute(
  {
    path: "/api/Projects/{projectId}/channels/DEV",
    operationId: "pinDevChannel",
    tag: "Channels",
    summary: "Pins a Testing template to DEV (an Editor or higher), or unpins it (templateId null): DEV then serves the newest Testing template",
    access: { project: "channel.pin-dev" },
    body: pinBody,
    responses: { 200: { description: "The channel as it serves now", schema: channelServingSchema } },
    errors: { 409: "Not a Testing template" },
  },
  async (ctx) => json(await pinDev(ctx, ctx.body.templateId)),
);
