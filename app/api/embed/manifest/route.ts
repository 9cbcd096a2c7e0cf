import { withPublic } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { manifestQuery } from "@/lib/embed/contract";

// GET /api/embed/manifest?share={slug} | ?session={token} – the page manifest the player plays (public; a fresh ingest token each time)
export const GET = withPublic(async ({ req }) => {
  const query = parseInput(manifestQuery, searchParamsObject(req));
  const source = query.share !== undefined ? { share: query.share, address: clientAddress(req.headers) } : { session: query.session! };
  return json(await buildPageManifest(await getDb(), source), 200, { "Cache-Control": "no-store" });
});
