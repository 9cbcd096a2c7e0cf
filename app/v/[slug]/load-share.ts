import { headers } from "next/headers";
import { cache } from "react";
import { findShareRecipient } from "@/lib/campaigns/recipient-share";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { recipientViewerHash } from "@/lib/campaigns/import-recipients";
import { shareForViewer } from "@/lib/releases/serve-variant";
import { viewerCookieOf } from "@/lib/releases/viewer-cookie";
import { loadPageData } from "@/lib/server/request-context";
import { findPublicShare } from "@/lib/shares/public-share";
import { chargeShareMiss } from "@/lib/shares/share-lookup-limit";
import { acceptedLocale } from "@/lib/shares/viewer-locale";
import { canonicalLocale } from "@/shared/i18n/locale";

/**
 * One query per request, shared by the layout (lang), generateMetadata and the page; 503 while
 * the database is unreachable. A miss is charged to the viewer's address; proxy.ts refuses the
 * page (429) once the address's misses are used up (a page cannot answer a status of its own).
 */
export const loadShare = cache((slug: string) =>
  loadPageData(async () => {
    const share = await findPublicShare(await getDb(), slug);
    if (!share) {
      chargeShareMiss(slug, clientAddress(await headers()));
    }
    return share;
  }),
);

/** The share as this viewer sees it: their A/B variant (by the first-party viewer cookie proxy.ts sets) while the share runs a test. */
export const loadViewerShare = cache((slug: string) =>
  loadPageData(async () => {
    const share = await loadShare(slug);
    const cookie = viewerCookieOf(await headers());
    return share && shareForViewer(await getDb(), share, cookie ? { cookie } : null);
  }),
);

/** The share (as the recipient sees it: their A/B variant) and the campaign recipient of a personal URL; null (a miss, charged like a share's) when either is unknown. */
export const loadRecipientShare = cache((slug: string, token: string) =>
  loadPageData(async () => {
    const share = await loadShare(slug);
    if (!share) return null;
    const recipient = await findShareRecipient(await getDb(), share, token);
    if (!recipient) {
      chargeShareMiss(slug, clientAddress(await headers()));
      return null;
    }
    return { share: await shareForViewer(await getDb(), share, { viewerHash: recipientViewerHash(share.projectId, recipient.id) }), recipient };
  }),
);

/** The page's language: the share's locale; without a share (the unavailable page), the viewer's Accept-Language. */
export const landingLocale = cache(async (slug: string): Promise<string> => {
  const share = await loadShare(slug);
  if (share) return (share.locale && canonicalLocale(share.locale)) || "en";
  return acceptedLocale((await headers()).get("accept-language"));
});
