import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { LRUCache } from "lru-cache";
import { ConflictError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { processWide } from "@/lib/process-wide";
import { projectVerb } from "@/lib/services/verbs";
import { renderPreviewPng } from "@/lib/skottie/preview-renderer";
import { getBlobStore } from "@/lib/storage";
import { applyBindings } from "@/shared/templates/bindings";
import type { Lottie } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import { loadLottie } from "./load-lottie";
import { signPreviewUrl } from "./preview-url";
import { getTemplateFiles, getTemplateRowOrThrow } from "./templates";

type PreviewMeta = { width: number; height: number; frame: number; warnings: string[] };
/** A rendered preview: the SHA-256 of its PNG (stored in the blob store under that digest) and what the API reports of it. */
type RenderedPreview = { sha256: string; meta: PreviewMeta };

/** A Raster template with only a poster still previews: an empty overlay on top of it. */
const emptyOverlay: Lottie = { v: "5.7.0", fr: 30, ip: 0, op: 1, w: 1280, h: 720, layers: [] } as unknown as Lottie;

/**
 * Previews rendered by this process, by (template, data). Only a cache, so it may be per
 * process: templates never change, a miss renders again, and the PNG itself is in the shared
 * blob store, where any process finds it by the digest its signed URL names.
 */
const renderedPreviews = () => processWide("templates.rendered-previews", () => new LRUCache<string, RenderedPreview>({ max: 10_000 }));

/** A preview's PNG by its SHA-256 (checked by the caller's signature), or null when the blob store has no such blob. */
export async function readPreviewPng(sha256: string): Promise<Buffer | null> {
  try {
    return await getBlobStore().read(`sha256/${sha256}`);
  } catch (error) {
    if (hasErrorCode(error, "BLOB_NOT_FOUND")) return null;
    throw error;
  }
}

function canonicalJson(data: Record<string, string>): string {
  return JSON.stringify(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Renders the template with the data applied (a PNG at the manifest's posterFrame, else
 * mid-animation), stores it in the blob store, and returns a signed URL naming its digest.
 */
export const previewTemplate = projectVerb(
  "template.preview",
  async ({ db, access }, { templateId, data, locale }: { templateId: string; data: Record<string, string>; locale?: string | null }) => {
    const { sha256, meta } = await renderPreview(db, access.project.id, templateId, data, locale ?? null);
    const { url, expiresAt } = signPreviewUrl(sha256);
    return { url, expiresAt, ...meta };
  },
);

/**
 * The rendered (or cached) preview's digest and metadata; readPreviewPng(sha256) gives the PNG.
 * Takes a bare project id: the share poster calls it for a public share, with no actor. The
 * fields' formatted values (dates, amounts) are in `locale` (BCP 47; null: en-US).
 */
export async function renderPreview(db: Db, projectId: string, templateId: string, data: Record<string, string>, locale: string | null = null): Promise<RenderedPreview> {
  const template = await getTemplateRowOrThrow(db, { projectId, templateId });
  const cacheKey = createHash("sha256").update(`${template.id}\n${locale ?? ""}\n${canonicalJson(data)}`).digest("hex");
  const cached = renderedPreviews().get(cacheKey);
  const store = getBlobStore();
  // Blobs are shared by content: a template file with the same bytes, deleted, takes the PNG with it.
  if (cached && (await store.stat(`sha256/${cached.sha256}`))) return cached;
  const files = await getTemplateFiles(db, template.id);
  const templateJson = files.find((f) => f.role === "templateJson");
  const poster = files.find((f) => f.role === "posterFile");
  if (!templateJson && !poster) throw new ConflictError("This template has neither a Lottie file nor a poster to preview.");
  const lottie = templateJson ? await loadLottie(templateJson) : emptyOverlay;
  const manifest = template.manifest as BindingManifest | null;
  const assets = new Map<string, Uint8Array>();
  for (const asset of files.filter((f) => f.role === "assetFiles" && f.contentType.startsWith("image/"))) {
    assets.set(asset.name, await store.read(asset.storageKey));
  }
  const bound = applyBindings({ lottie, manifest, data, assets: assets.keys(), locale });
  const background = template.kind === "Raster" && poster ? await store.read(poster.storageKey) : undefined;
  const frame = manifest?.posterFrame ?? (lottie.ip + lottie.op) / 2;
  const rendered = await renderPreviewPng({ lottie: bound.lottie, assets, frame, background });
  const stored = await store.put(Readable.from([rendered.png]));
  const preview = {
    sha256: stored.sha256,
    meta: { width: rendered.width, height: rendered.height, frame: rendered.frame, warnings: [...bound.warnings, ...rendered.warnings] },
  };
  renderedPreviews().set(cacheKey, preview);
  return preview;
}
