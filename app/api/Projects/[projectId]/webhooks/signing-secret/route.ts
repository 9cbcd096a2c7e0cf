import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { signingSecretSchema } from "@/lib/webhooks/contract";
import { revealSigningSecret } from "@/lib/webhooks/signing-secret";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/webhooks/signing-secret",
    operationId: "getWebhookSigningSecret",
    tag: "Webhooks",
    summary: "The project's Standard Webhooks signing secret (whsec_…), made on first need",
    access: { project: "webhook.read" },
    responses: { 200: { description: "The secret", schema: signingSecretSchema } },
  },
  async (ctx) => json(await revealSigningSecret(ctx)),
);
