import { errorResponse } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { getDb } from "@/lib/db";
import { authenticateCredential, createEmbedSession } from "@/lib/embed/embed-sessions";
import { embedSessionBody } from "@/lib/embed/schema";

// POST /api/embed-sessions – an embed-session token for a customer site (HTTP Basic apiKey:apiSecret)
export async function POST(req: Request) {
  try {
    const db = await getDb();
    const credential = await authenticateCredential(db, req);
    const input = await readJsonBody(req, embedSessionBody);
    return json(await createEmbedSession(db, credential, input), 201, { "Cache-Control": "no-store" });
  } catch (error) {
    return errorResponse(error);
  }
}
