import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { createEmbedSession } from "@/lib/embed/embed-sessions";
import { embedSessionBody, embedSessionSchema } from "@/lib/embed/contract";

export const POST = defineRoute(
  {
    path: "/api/embed-sessions",
    operationId: "createEmbedSession",
    tag: "Embed",
    summary: "Mint an embed-session token for a customer site (pass it to the SDK)",
    access: "credential",
    body: embedSessionBody,
    responses: { 201: { description: "The token, its expiry and the player URL", schema: embedSessionSchema } },
    errors: { 404: "The credential's project has no such share" },
  },
  async ({ db, credential, body }) => json(await createEmbedSession(db, credential, body), 201, { "Cache-Control": "no-store" }),
);
