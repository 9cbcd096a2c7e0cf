import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { signingSecretSchema } from "@/lib/webhooks/contract";
import { rotateProjectSigningSecret } from "@/lib/webhooks/signing-secret";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/signing-secret/rotate",
    operationId: "rotateWebhookSigningSecret",
    tag: "Webhooks",
    summary: "Replace the signing secret; for 24 h deliveries carry a signature made with the previous one too",
    access: { project: "webhook.write" },
    responses: { 200: { description: "The new secret", schema: signingSecretSchema } },
  },
  async (ctx) => json(await rotateProjectSigningSecret(ctx)),
);
