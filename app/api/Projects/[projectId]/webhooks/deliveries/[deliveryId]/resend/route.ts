import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { resendDelivery } from "@/lib/webhooks/deliveries";

// POST /api/Projects/{projectId}/webhooks/deliveries/{deliveryId}/resend – queue it again, same webhook-id, fresh attempts
export const POST = withProjectRole<{ projectId: string; deliveryId: string }>("webhook.write", async (ctx) =>
  json(await resendDelivery(ctx, ctx.params.deliveryId), 202),
);
