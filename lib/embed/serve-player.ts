import { problemOf, toLoggedAppError } from "@/lib/api/errors";
import { BadRequestError } from "@/lib/errors";
import { getDb } from "@/lib/db";
import type { PageManifest } from "@/shared/embed-protocol";
import { buildPageManifest, type ManifestSource } from "./page-manifest";
import { acceptedLocale } from "@/lib/shares/viewer-locale";
import { playerMessages } from "@/shared/i18n/player-messages";
import { translator } from "@/shared/i18n/locale";
import { playerPageHeaders, renderPlayerPage, renderUnavailablePage, type UnavailablePage } from "./player-page";

/**
 * GET /embed/{slug} and /embed?session=: the player document, or an HTML notice with the error's
 * status in the viewer's language (Accept-Language: without a share there is no share locale).
 */
export async function servePlayerPage(source: ManifestSource | null, acceptLanguage: string | null): Promise<Response> {
  const locale = acceptedLocale(acceptLanguage);
  const t = translator(playerMessages, locale);
  const notices = { 401: t("linkExpired"), 404: t("notAvailable"), 429: t("tooManyLinks") };
  return servePlayerDocument(
    async () => {
      if (!source) throw new BadRequestError("Name a share (/embed/{slug}) or a session (/embed?session=…).");
      return buildPageManifest(await getDb(), source);
    },
    notices,
    { lang: locale, title: t("unavailableTitle") },
  );
}

/** The player document for whatever manifest `load` builds; its errors become an HTML notice with their status. */
export async function servePlayerDocument(
  load: () => Promise<PageManifest>,
  messages: Record<number, string>,
  page: UnavailablePage = { lang: "en", title: "Video unavailable" },
): Promise<Response> {
  try {
    const manifest = await load();
    return new Response(renderPlayerPage(manifest), { headers: playerPageHeaders(manifest) });
  } catch (error) {
    const appError = toLoggedAppError(error);
    const { status, headers } = problemOf(appError);
    const message = messages[status] ?? appError.message;
    return new Response(renderUnavailablePage(message, page), { status, headers: { ...playerPageHeaders(null), ...headers, "Content-Type": "text/html; charset=utf-8" } });
  }
}
