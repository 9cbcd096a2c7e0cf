import { BadRequestError, toAppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import { buildPageManifest, type ManifestSource } from "./page-manifest";
import { playerPageHeaders, renderPlayerPage, renderUnavailablePage } from "./player-page";

const notices: Record<number, string> = {
  401: "This video link has expired or is not valid.",
  404: "This video is not available.",
};

/** GET /embed/{slug} and /embed?session=: the player document, or an HTML notice with the error's status. */
export async function servePlayerPage(source: ManifestSource | null): Promise<Response> {
  try {
    if (!source) throw new BadRequestError("Name a share (/embed/{slug}) or a session (/embed?session=…).");
    const manifest = await buildPageManifest(await getDb(), source);
    return new Response(renderPlayerPage(manifest), { headers: playerPageHeaders(manifest) });
  } catch (error) {
    const problem = toAppError(error);
    if (problem.status >= 500) console.error(error);
    const message = notices[problem.status] ?? problem.message;
    return new Response(renderUnavailablePage(message), { status: problem.status, headers: { ...playerPageHeaders(null), ...problem.headers } });
  }
}
