import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listChannels } from "@/lib/releases/channels";
import { channelListSchema } from "@/lib/releases/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/channels",
    operationId: "listChannels",
    tag: "Channels",
    summary: "Each channel (DEV, STAGING, PROD): the template it serves and why, its pin, its share and the share's A/B test",
    access: { project: "template.read" },
    responses: { 200: { description: "The three channels", schema: channelListSchema } },
  },
  async (ctx) => json(await listChannels(ctx, undefined)),
);
