import type { Db } from "@/lib/db";
import { findPublicShareFor } from "@/lib/shares/public-share";
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
  const { sha256 } = await renderPreview(db, share.projectId, share.template.id, bindingData(share.personalizationData));
  const png = await readPreviewPng(sha256);
  return png ? { body: png, contentType: "image/png" } : null;
}
