import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { shareVariants, templates } from "@/lib/db/schema";
import { assignVariant } from "@/lib/experiments/assign";
import type { PublicShare } from "@/lib/shares/public-share";
import { servedTemplateColumns } from "@/lib/templates/served-template";

// Which template a viewer of a share sees (docs/adr/0150-release-control.md): the channel's own,
// or, while the share runs an A/B test, the variant the viewer is assigned — sticky by a key
// that stays with the viewer: their viewer hash (a campaign recipient, or an embed session minted
// for a viewer id), the landing page's first-party cookie, or the embed session. No key (a
// crawler, a host page calling the manifest API without the cookie): the control.

/**
 * Whose view it is: a viewer hash (a campaign recipient's, or an embed session's minted for a
 * viewer id: the same person by the same id gets the same variant in both), the landing page's
 * cookie, or an embed session without a viewer id (its token).
 */
export type Viewer = { viewerHash: string } | { cookie: string } | { session: string } | null;

/** The key the assignment hashes with the share. */
export function viewerKey(viewer: Viewer): string | null {
  if (!viewer) return null;
  if ("viewerHash" in viewer) return `viewer:${viewer.viewerHash}`;
  if ("cookie" in viewer) return `cookie:${viewer.cookie}`;
  // An embed session's token, digested: the same session keeps its variant.
  return `session:${createHash("sha256").update(viewer.session).digest("base64url")}`;
}

/** The share as `viewer` sees it: its template the viewer's variant while it runs an A/B test; unchanged otherwise. */
export async function shareForViewer(db: Db, share: PublicShare, viewer: Viewer): Promise<PublicShare> {
  const rows = await db
    .select({
      position: shareVariants.position,
      weight: shareVariants.weight,
      templateId: templates.id,
      template: servedTemplateColumns,
    })
    .from(shareVariants)
    .innerJoin(templates, eq(templates.id, shareVariants.templateId))
    .where(eq(shareVariants.shareId, share.id))
    .orderBy(asc(shareVariants.position));
  if (rows.length === 0) return share;
  const key = viewerKey(viewer);
  const chosen = key ? assignVariant(share.id, key, rows) : rows[0]!;
  return chosen ? { ...share, template: { ...chosen.template, because: "variant" } } : share;
}
