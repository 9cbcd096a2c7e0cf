import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { deliverySchema } from "@/lib/webhooks/contract";
import { resendDelivery } from "@/lib/webhooks/deliveries";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/deliveries/{deliveryId}/resend",
    operationId: "resendWebhookDelivery",
    tag: "Webhooks",
    summary: "Queue a delivered or failed delivery again: the same webhook-id, a fresh 24 h of attempts",
    access: { project: "webhook.write" },
    responses: {
      202: { description: "The delivery, pending again", schema: deliverySchema },
    },
    errors: { 409: "The delivery is still pending" },
  },
  async (ctx) => json(await resendDelivery(ctx, ctx.params.deliveryId), 202),
);
