import { problemOf, toLoggedAppError } from "@/lib/api/errors";
import { BadRequestError } from "@/lib/errors";
import { getDb } from "@/lib/db";
import type { PageManifest } from "@/shared/embed-protocol";
import { buildPageManifest, type ManifestSource } from "./page-manifest";
import { playerPageHeaders, renderPlayerPage, renderUnavailablePage } from "./player-page";

const notices: Record<number, string> = {
  401: "This video link has expired or is not valid.",
  404: "This video is not available.",
  429: "Too many unknown video links from your address. Try again in a moment.",
};

/** GET /embed/{slug} and /embed?session=: the player document, or an HTML notice with the error's status. */
export async function servePlayerPage(source: ManifestSource | null): Promise<Response> {
  return servePlayerDocument(async () => {
    if (!source) throw new BadRequestError("Name a share (/embed/{slug}) or a session (/embed?session=…).");
    return buildPageManifest(await getDb(), source);
  });
}

/** The player document for whatever manifest `load` builds; its errors become an HTML notice with their status. */
export async function servePlayerDocument(load: () => Promise<PageManifest>, messages: Record<number, string> = notices): Promise<Response> {
  try {
    const manifest = await load();
    return new Response(renderPlayerPage(manifest), { headers: playerPageHeaders(manifest) });
  } catch (error) {
    const appError = toLoggedAppError(error);
    const { status, headers } = problemOf(appError);
    const message = messages[status] ?? appError.message;
    return new Response(renderUnavailablePage(message), { status, headers: { ...playerPageHeaders(null), ...headers, "Content-Type": "text/html; charset=utf-8" } });
  }
}
