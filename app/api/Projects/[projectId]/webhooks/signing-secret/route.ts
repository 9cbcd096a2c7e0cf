import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { revealSigningSecret } from "@/lib/webhooks/signing-secret";

// GET /api/Projects/{projectId}/webhooks/signing-secret – the whsec_ secret receivers verify with (made on first need)
export const GET = withProjectRole("webhook.read", async (ctx) => json(await revealSigningSecret(ctx)));
