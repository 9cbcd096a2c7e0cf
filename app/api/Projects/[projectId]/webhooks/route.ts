import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { createEndpointBody, endpointSchema, savedEndpointSchema } from "@/lib/webhooks/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks",
    operationId: "listWebhookEndpoints",
    tag: "Webhooks",
    summary: "List the project's webhook endpoints",
    access: { project: "webhook.read" },
    responses: { 200: { description: "The endpoints", schema: listOf(endpointSchema) } },
  },
  async (ctx) => json({ items: await listEndpoints(ctx) }),
);

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks",
    operationId: "createWebhookEndpoint",
    tag: "Webhooks",
    summary:
      "Register a webhook endpoint for render.completed, render.failed and campaign.imported (eventTypes: a subset, empty = all); its URL must be http(s) and reach only public addresses (a host that does not resolve now is saved with a warning and checked at each delivery)",
    access: { project: "webhook.write" },
    body: createEndpointBody,
    responses: { 201: { description: "The endpoint, with warnings (its host did not resolve now)", schema: savedEndpointSchema } },
  },
  async (ctx) => json(await createEndpoint(ctx, ctx.body), 201),
);
