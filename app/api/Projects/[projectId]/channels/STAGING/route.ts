import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { pinStaging } from "@/lib/releases/channels";
import { channelServingSchema, pinBody } from "@/lib/releases/contract";

export const PUT = defineRoute(
  {
    path: "/api/Projects/{projectId}/channels/STAGING",
    operationId: "pinStagingChannel",
    tag: "Channels",
    summary: "Pins a Testing template to STAGING (a ProjectManager or higher), or unpins it (templateId null): STAGING then serves the newest Testing template",
    access: { project: "channel.pin-staging" },
    body: pinBody,
    responses: { 200: { description: "The channel as it serves now", schema: channelServingSchema } },
    errors: { 409: "Not a Testing template" },
  },
  async (ctx) => json(await pinStaging(ctx, ctx.body.templateId)),
);
