import { withCredential } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { createEmbedSession } from "@/lib/embed/embed-sessions";
import { embedSessionBody } from "@/lib/embed/contract";

// POST /api/embed-sessions – an embed-session token for a customer site (HTTP Basic apiKey:apiSecret)
export const POST = withCredential(async ({ req, db, credential }) => {
  const input = await readJsonBody(req, embedSessionBody);
  return json(await createEmbedSession(db, credential, input), 201, { "Cache-Control": "no-store" });
});
