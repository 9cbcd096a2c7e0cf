import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { createEndpointBody } from "@/lib/webhooks/contract";

// GET /api/Projects/{projectId}/webhooks – the project's webhook endpoints
export const GET = withProjectRole("webhook.read", async ({ db, access }) => json({ items: await listEndpoints(db, access) }));

// POST /api/Projects/{projectId}/webhooks – register an endpoint (its URL must reach a public address)
export const POST = withProjectRole("webhook.write", async ({ req, db, actor, access }) => {
  const input = await readJsonBody(req, createEndpointBody);
  return json(await createEndpoint(db, actor, access, input), 201);
});
