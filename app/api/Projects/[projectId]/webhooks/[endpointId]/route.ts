import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { deleteEndpoint, getEndpointOrThrow, presentEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { updateEndpointBody } from "@/lib/webhooks/contract";

type Params = { projectId: string; endpointId: string };

// GET /api/Projects/{projectId}/webhooks/{endpointId} – one endpoint
export const GET = withProjectRole<Params>("webhook.read", async ({ params, db, access }) =>
  json(presentEndpoint(await getEndpointOrThrow(db, access, params.endpointId))),
);

// PATCH /api/Projects/{projectId}/webhooks/{endpointId} – change its URL, description, event types or enabled state
export const PATCH = withProjectRole<Params>("webhook.write", async ({ req, params, db, actor, access }) => {
  const input = await readJsonBody(req, updateEndpointBody);
  return json(await updateEndpoint(db, actor, access, params.endpointId, input));
});

// DELETE /api/Projects/{projectId}/webhooks/{endpointId} – remove it and its delivery log
export const DELETE = withProjectRole<Params>("webhook.write", async ({ params, db, actor, access }) => {
  await deleteEndpoint(db, actor, access, params.endpointId);
  return new Response(null, { status: 204 });
});
