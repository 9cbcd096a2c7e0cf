import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { rotateProjectSigningSecret } from "@/lib/webhooks/signing-secret";

// POST /api/Projects/{projectId}/webhooks/signing-secret/rotate – a new secret; the previous one still signs for 24 h
export const POST = withProjectRole("webhook.write", async (ctx) => json(await rotateProjectSigningSecret(ctx)));
