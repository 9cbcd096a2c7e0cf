import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { createEndpointBody } from "@/lib/webhooks/contract";

// GET /api/Projects/{projectId}/webhooks – the project's webhook endpoints
export const GET = withProjectRole("webhook.read", async (ctx) => json({ items: await listEndpoints(ctx) }));

// POST /api/Projects/{projectId}/webhooks – register an endpoint (its URL must reach a public address)
export const POST = withProjectRole("webhook.write", async (ctx) => {
  const input = await readJsonBody(ctx.req, createEndpointBody);
  return json(await createEndpoint(ctx, input), 201);
});
