import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

// POST /api/Projects/{projectId}/webhooks/{endpointId}/test – queue a signed webhook.test event for this endpoint
export const POST = withProjectRole<{ projectId: string; endpointId: string }>("webhook.write", async (ctx) =>
  json(await sendTestEvent(ctx, ctx.params.endpointId), 202),
);
