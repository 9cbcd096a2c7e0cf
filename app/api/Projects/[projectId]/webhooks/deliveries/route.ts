import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { deliveryPageSchema, listDeliveriesQuery } from "@/lib/webhooks/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "The delivery log, newest first, paginated by cursor: event, URL, status, attempts, last status code or error, the attempt log and the payload",
    access: { project: "webhook.read" },
    query: listDeliveriesQuery,
    responses: { 200: { description: "A page of deliveries", schema: deliveryPageSchema } },
  },
  async (ctx) => json(await listDeliveries(ctx, ctx.query)),
);
