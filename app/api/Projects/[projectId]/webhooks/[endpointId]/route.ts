import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { updateEndpointBody } from "@/lib/webhooks/contract";

type Params = { projectId: string; endpointId: string };

// GET /api/Projects/{projectId}/webhooks/{endpointId} – one endpoint
export const GET = withProjectRole<Params>("webhook.read", async (ctx) => json(await getEndpoint(ctx, ctx.params.endpointId)));

// PATCH /api/Projects/{projectId}/webhooks/{endpointId} – change its URL, description, event types or enabled state
export const PATCH = withProjectRole<Params>("webhook.write", async (ctx) => {
  const input = await readJsonBody(ctx.req, updateEndpointBody);
  return json(await updateEndpoint(ctx, { endpointId: ctx.params.endpointId, ...input }));
});

// DELETE /api/Projects/{projectId}/webhooks/{endpointId} – remove it and its delivery log
export const DELETE = withProjectRole<Params>("webhook.write", async (ctx) => {
  await deleteEndpoint(ctx, ctx.params.endpointId);
  return new Response(null, { status: 204 });
});
