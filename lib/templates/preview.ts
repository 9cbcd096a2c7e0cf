import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConflictError } from "@/lib/api/errors";
import { getConfig } from "@/lib/config";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { renderPreviewPng } from "@/lib/render/preview-renderer";
import { getBlobStore } from "@/lib/storage";
import { applyBindings } from "./bindings";
import { loadLottie } from "./load-lottie";
import type { Lottie } from "./lottie";
import type { BindingManifest } from "./manifest";
import { signPreviewUrl } from "./preview-url";
import { getTemplateFiles, getTemplateRowOrThrow } from "./templates";

type PreviewMeta = { width: number; height: number; frame: number; warnings: string[] };

/** A Raster template with only a poster still previews: an empty overlay on top of it. */
const emptyOverlay: Lottie = { v: "5.7.0", fr: 30, ip: 0, op: 1, w: 1280, h: 720, layers: [] } as unknown as Lottie;

function previewDir(): string {
  return path.join(getConfig().dataDir, "previews");
}

/** The cached PNG of a preview, or null; names are 64 hex characters (checked by the caller's signature). */
export async function readCachedPreview(name: string): Promise<Buffer | null> {
  try {
    return readFileSync(path.join(previewDir(), `${name}.png`));
  } catch {
    return null;
  }
}

function readCachedMeta(name: string): PreviewMeta | null {
  try {
    return JSON.parse(readFileSync(path.join(previewDir(), `${name}.json`), "utf8")) as PreviewMeta;
  } catch {
    return null;
  }
}

/** Writes PNG then metadata, each via a temp file and rename: a reader never sees half a file. */
function writeCache(name: string, png: Uint8Array, meta: PreviewMeta) {
  const dir = previewDir();
  mkdirSync(dir, { recursive: true });
  for (const [file, bytes] of [[`${name}.png`, png], [`${name}.json`, Buffer.from(JSON.stringify(meta))]] as const) {
    const temp = path.join(dir, `.${file}.${process.pid}.${Date.now()}.tmp`);
    writeFileSync(temp, bytes);
    renameSync(temp, path.join(dir, file));
  }
}

function canonicalJson(data: Record<string, string>): string {
  return JSON.stringify(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Renders the template with the data applied (a PNG at the manifest's posterFrame, else
 * mid-animation), caches it by (template, data), and returns a signed URL to it.
 */
export async function previewTemplate(db: Db, { project }: ProjectAccess, templateId: string, data: Record<string, string>) {
  const { name, meta } = await renderPreview(db, project.id, templateId, data);
  const { url, expiresAt } = signPreviewUrl(name);
  return { url, expiresAt, ...meta };
}

/**
 * The rendered (or cached) preview's cache name and metadata; readCachedPreview(name) gives the PNG.
 * Takes a bare project id: the share poster calls it for a public share, with no actor.
 */
export async function renderPreview(db: Db, projectId: string, templateId: string, data: Record<string, string>) {
  const template = await getTemplateRowOrThrow(db, { projectId, templateId });
  const name = createHash("sha256").update(`${template.id}\n${canonicalJson(data)}`).digest("hex");
  let meta = readCachedMeta(name);
  if (!meta || !existsSync(path.join(previewDir(), `${name}.png`))) {
    const files = await getTemplateFiles(db, template.id);
    const templateJson = files.find((f) => f.role === "templateJson");
    const poster = files.find((f) => f.role === "posterFile");
    if (!templateJson && !poster) throw new ConflictError("This template has neither a Lottie file nor a poster to preview.");
    const store = getBlobStore();
    const lottie = templateJson ? await loadLottie(templateJson) : emptyOverlay;
    const manifest = template.manifest as BindingManifest | null;
    const assets = new Map<string, Uint8Array>();
    for (const asset of files.filter((f) => f.role === "assetFiles" && f.contentType.startsWith("image/"))) {
      assets.set(asset.name, await store.read(asset.storageKey));
    }
    const bound = applyBindings({ lottie, manifest, data, assets: assets.keys() });
    const background = template.kind === "Raster" && poster ? await store.read(poster.storageKey) : undefined;
    const frame = manifest?.posterFrame ?? (lottie.ip + lottie.op) / 2;
    const rendered = await renderPreviewPng({ lottie: bound.lottie, assets, frame, background });
    meta = { width: rendered.width, height: rendered.height, frame: rendered.frame, warnings: [...bound.warnings, ...rendered.warnings] };
    writeCache(name, rendered.png, meta);
  }
  return { name, meta };
}
