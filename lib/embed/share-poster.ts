import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { findShareRecipient } from "@/lib/campaigns/recipient-share";
import type { Db } from "@/lib/db";
import { recipientPosters } from "@/lib/db/schema";
import { findPublicShareFor, type PublicShare } from "@/lib/shares/public-share";
import { chargeShareMiss } from "@/lib/shares/share-lookup-limit";
import { recipientViewerHash } from "@/lib/campaigns/import-recipients";
import { shareForViewer } from "@/lib/releases/serve-variant";
import { getBlobStore } from "@/lib/storage";
import { readPreviewPng, renderPreview } from "@/lib/templates/preview";
import { getTemplateFiles } from "@/lib/templates/templates";
import { bindingData } from "./page-manifest";

export type SharePoster = { body: Buffer; contentType: string };

/**
 * What a share shows before its player draws a frame (the landing page's box, Open Graph):
 * the served template's poster, else a frame rendered with the share's data (the preview
 * renderer, cached per template and data, so only the first view pays). Null when the share
 * is unavailable or serves nothing; 429 when the viewer's `address` has missed too often.
 */
export async function findSharePoster(db: Db, slug: string, address: string): Promise<SharePoster | null> {
  const share = await findPublicShareFor(db, slug, address);
  if (!share?.template) return null;
  const poster = (await getTemplateFiles(db, share.template.id)).find((file) => file.role === "posterFile");
  if (poster) return { body: await getBlobStore().read(poster.storageKey), contentType: poster.contentType };
  const { sha256 } = await renderPreview(db, share.projectId, share.template.id, bindingData(share.personalizationData), share.locale);
  const png = await readPreviewPng(sha256);
  return png ? { body: png, contentType: "image/png" } : null;
}

/** A poster found without reading its bytes yet: its digest is enough to answer If-None-Match. */
export type StoredPoster = { sha256: string; contentType: string; read: () => Promise<Buffer> };

/**
 * A campaign recipient's poster (their page's placeholder and Open Graph image): the template's
 * poster frame rendered with the recipient's data over the share's. Rendered once per recipient,
 * template and data: the recipient_posters row finds the PNG in the blob store again. A template
 * without a Lottie file (a Raster video alone) has nothing to personalize: its poster file, as
 * the share's. Null for an unavailable share or an unknown token (a miss charged to `address`).
 */
export async function findRecipientPoster(db: Db, slug: string, token: string, address: string): Promise<StoredPoster | null> {
  const found = await findPublicShareFor(db, slug, address);
  if (!found?.template) return null;
  const recipient = await findShareRecipient(db, found, token);
  if (!recipient) {
    chargeShareMiss(slug, address);
    return null;
  }
  // The template the recipient's page plays: their A/B variant while the share runs a test.
  const share = await shareForViewer(db, found, { viewerHash: recipientViewerHash(found.projectId, recipient.id) });
  if (!share.template) return null;
  const files = await getTemplateFiles(db, share.template.id);
  const posterFile = files.find((file) => file.role === "posterFile");
  if (!files.some((file) => file.role === "templateJson")) {
    if (!posterFile) return null;
    return { sha256: posterFile.sha256, contentType: posterFile.contentType, read: () => getBlobStore().read(posterFile.storageKey) };
  }
  const sha256 = await recipientPosterDigest(db, { ...share, template: share.template }, recipient);
  return { sha256, contentType: "image/png", read: () => getBlobStore().read(`sha256/${sha256}`) };
}

/** The digest of the recipient's PNG in the blob store: the stored one while its data is the same, else a fresh render. */
async function recipientPosterDigest(db: Db, share: PublicShare & { template: NonNullable<PublicShare["template"]> }, recipient: { id: string; data: Record<string, unknown> }): Promise<string> {
  const data = bindingData(share.personalizationData, recipient.data);
  // The locale too: the same data reads "3. März 2027" in a de-DE share.
  const dataHash = createHash("sha256")
    .update(JSON.stringify([share.locale ?? null, Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]))
    .digest("hex");
  const key = and(eq(recipientPosters.recipientId, recipient.id), eq(recipientPosters.templateId, share.template.id));
  const [stored] = await db.select({ dataHash: recipientPosters.dataHash, sha256: recipientPosters.sha256 }).from(recipientPosters).where(key);
  // A blob can go with a deleted template file of the same bytes: then it is rendered again.
  if (stored?.dataHash === dataHash && (await getBlobStore().stat(`sha256/${stored.sha256}`))) return stored.sha256;
  const { sha256 } = await renderPreview(db, share.projectId, share.template.id, data, share.locale);
  await db
    .insert(recipientPosters)
    .values({ recipientId: recipient.id, templateId: share.template.id, dataHash, sha256 })
    .onConflictDoUpdate({ target: [recipientPosters.recipientId, recipientPosters.templateId], set: { dataHash, sha256, createdAt: new Date() } });
  return sha256;
}
