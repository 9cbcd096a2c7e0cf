import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { endpointSchema, savedEndpointSchema, updateEndpointBody } from "@/lib/webhooks/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/{endpointId}",
    operationId: "getWebhookEndpoint",
    tag: "Webhooks",
    summary: "One webhook endpoint",
    access: { project: "webhook.read" },
    responses: { 200: { description: "The endpoint", schema: endpointSchema } },
  },
  async (ctx) => json(await getEndpoint(ctx, ctx.params.endpointId)),
);

export const PATCH = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/{endpointId}",
    operationId: "updateWebhookEndpoint",
    tag: "Webhooks",
    summary: "Change an endpoint's url, description, eventTypes or enabled; pending deliveries follow a new URL, and fail when it is disabled",
    access: { project: "webhook.write" },
    body: updateEndpointBody,
    responses: { 200: { description: "The endpoint, with warnings (its new host did not resolve now)", schema: savedEndpointSchema } },
  },
  async (ctx) => json(await updateEndpoint(ctx, { endpointId: ctx.params.endpointId, ...ctx.body })),
);

export const DELETE = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/{endpointId}",
    operationId: "deleteWebhookEndpoint",
    tag: "Webhooks",
    summary: "Delete an endpoint and its deliveries",
    access: { project: "webhook.write" },
    responses: { 204: { description: "Deleted" } },
  },
  async (ctx) => {
    await deleteEndpoint(ctx, ctx.params.endpointId);
    return new Response(null, { status: 204 });
  },
);
