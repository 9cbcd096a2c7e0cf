import { z } from "zod";
import type { Db } from "@/lib/db";
import { toWebVtt, type CueKind } from "@/shared/templates/cues";
import { resolveViewer, type ManifestSource } from "./page-manifest";
import { shareCues } from "./viewer-cues";

// GET /api/embed/captions…: one viewer's captions or descriptions as WebVTT, for the same share,
// A/B variant and data the page manifest would give them (a <track> of a host page's own player,
// a download for the viewer).

export const cueKinds = ["captions", "descriptions"] as const satisfies readonly CueKind[];

export const captionsKindQuery = z.strictObject({
  kind: z.enum(cueKinds, { error: `must be one of ${cueKinds.join(", ")}` }).default("captions"),
});

export const captionsSessionQuery = captionsKindQuery.extend({
  session: z.string({ error: "is required: the embed-session token (POST /api/embed-sessions)" }).min(1, { error: "must not be empty" }).max(8192, { error: "must be at most 8192 characters" }),
});

/** The WebVTT body; 404 for an unavailable share or an unknown recipient token, 401 for a bad session token. */
export async function viewerWebVtt(db: Db, source: ManifestSource, kind: CueKind): Promise<string> {
  const { share, data } = await resolveViewer(db, source);
  return toWebVtt(await shareCues(db, share, data), kind);
}

export const webVttMedia = { "text/vtt": { type: "string", description: "A WebVTT file (UTF-8)" } };

export function webVttResponse(body: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/vtt; charset=utf-8",
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      ...extra,
    },
  });
}
