import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { deliverySchema } from "@/lib/webhooks/contract";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/{endpointId}/test",
    operationId: "sendWebhookTestEvent",
    tag: "Webhooks",
    summary: "Queue a signed webhook.test event for this endpoint",
    access: { project: "webhook.write" },
    responses: { 202: { description: "The queued delivery", schema: deliverySchema } },
  },
  async (ctx) => json(await sendTestEvent(ctx, ctx.params.endpointId), 202),
);
