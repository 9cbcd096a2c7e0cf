import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { schema, type Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { renderMedia, type RenderedMedia } from "@/lib/skottie/render-media";
import { getBlobStore } from "@/lib/storage";
import { templateCues } from "@/lib/embed/viewer-cues";
import { applyBindings } from "@/shared/templates/bindings";
import { toWebVtt } from "@/shared/templates/cues";
import { loadLottie } from "@/lib/templates/load-lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import { overlayConfigSchema } from "@/lib/templates/contract";
import { getTemplateFiles, getTemplateRowOrThrow } from "@/lib/templates/templates";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { signRenderDownload, type RenderPurpose } from "./download-url";

/** A row of the renders table, as the worker and the API read it. */
export type RenderRow = typeof schema.renders.$inferSelect;

// One attempt at one render, claimed by the render queue (queue.ts: status rendering, one more
// attempt, a lease). The renders row is the source of truth: the attempt records its outcome
// only if it still holds that claim (same attempt count, still unfinished), so a worker whose
// lease ran out cannot overwrite the result of the one that claimed the render after it.

/** Attempts before a render fails for good (a worker that died mid-render counts as one). */
export const maxRenderAttempts = 3;

export type AttemptOptions = {
  /** Aborted when the server shuts down: the render is queued again and the attempt not counted. */
  signal?: AbortSignal;
  /** A render still running after this is stopped and fails. */
  timeLimitSeconds?: number;
  /** Delay before the first retry of a failed attempt; doubled for each further one. */
  retryDelaySeconds: number;
};

/** A render that cannot succeed however often it is tried: the template's or the installation's problem. */
function isPermanent(error: unknown): boolean {
  return hasErrorCode(error, "RENDER_INPUT_INVALID") || hasErrorCode(error, "FFMPEG_MISSING") || hasErrorCode(error, "not_found");
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000);
}

/** The claim this attempt holds: the row is still unfinished with the attempt count it claimed. */
const holdsClaim = (claimed: RenderRow) =>
  and(eq(schema.renders.id, claimed.id), inArray(schema.renders.status, ["queued", "rendering"]), eq(schema.renders.attempts, claimed.attempts));

/**
 * Runs one claimed attempt and records what became of the render: done, failed for good, or
 * queued again for after the retry's delay (an attempt that failed and another may succeed).
 */
export async function runClaimedRender(db: Db, claimed: RenderRow, { signal, timeLimitSeconds, retryDelaySeconds }: AttemptOptions): Promise<void> {
  if (claimed.attempts > maxRenderAttempts) {
    // Every attempt so far was cut short: its worker stopped without recording an outcome.
    const interrupted = claimed.attempts - 1;
    const error = `The render was interrupted ${interrupted} times (its worker stopped); it was not retried again.`;
    await finish(db, claimed, { status: "failed", error, attempts: interrupted });
    return;
  }
  // A render that outlives its time limit is stopped, so that it has ended before its lease
  // runs out and another worker may claim it.
  const renderId = claimed.id;
  const timeout = timeLimitSeconds ? AbortSignal.timeout(timeLimitSeconds * 1000) : undefined;
  const stop = signal && timeout ? AbortSignal.any([signal, timeout]) : (signal ?? timeout);
  let workDir: string | null = null;
  try {
    workDir = await mkdtemp(path.join(os.tmpdir(), "reelbind-render-"));
    const media = await renderRow(db, claimed, workDir, stop);
    const stored = await getBlobStore().put(createReadStream(media.path));
    await finish(db, claimed, { status: "done", error: null, storageKey: stored.key, media });
  } catch (error) {
    if (signal?.aborted) {
      // Cut by a shutdown, not by the render: queued again at once, and the attempt is not counted.
      console.log(`Render ${renderId} was cut by the shutdown; it is queued again (this attempt does not count).`);
      await db
        .update(schema.renders)
        .set({ status: "queued", attempts: sql`${schema.renders.attempts} - 1`, nextAttemptAt: sql`now()` })
        .where(holdsClaim(claimed));
      return;
    }
    if (timeout?.aborted) error = new Error(`The render took longer than ${timeLimitSeconds} s and was stopped.`);
    const permanent = isPermanent(error) || timeout?.aborted || claimed.attempts >= maxRenderAttempts;
    console.error(`Render ${renderId} attempt ${claimed.attempts} failed${permanent ? "" : "; it will be retried"}:`, describe(error));
    if (permanent) {
      await finish(db, claimed, { status: "failed", error: describe(error) });
      return;
    }
    const delaySeconds = retryDelaySeconds * 2 ** (claimed.attempts - 1);
    await db
      .update(schema.renders)
      .set({ status: "queued", error: describe(error), nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})` })
      .where(holdsClaim(claimed));
  } finally {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }
}

/** Renders a claimed row into workDir. */
async function renderRow(db: Db, row: RenderRow, workDir: string, signal?: AbortSignal): Promise<RenderedMedia> {
  const template = await getTemplateRowOrThrow(db, { projectId: row.projectId, templateId: row.templateId });
  const files = await getTemplateFiles(db, template.id);
  const store = getBlobStore();
  const templateJson = files.find((f) => f.role === "templateJson");
  const video = files.find((f) => f.role === "videoFile");
  const manifest = template.manifest as BindingManifest | null;
  const assets = new Map<string, Uint8Array>();
  for (const asset of files.filter((f) => f.role === "assetFiles" && f.contentType.startsWith("image/"))) {
    assets.set(asset.name, await store.read(asset.storageKey));
  }
  const data = row.data as Record<string, string>;
  const animation = templateJson ? await loadLottie(templateJson) : null;
  const lottie = animation ? applyBindings({ lottie: animation, manifest, data, assets: assets.keys(), locale: row.locale }).lottie : null;
  const captions = animation && row.captions !== "none" ? await writeCaptions(workDir, templateCues(animation, template, data, row.locale)) : null;
  let videoPath: string | undefined;
  if (template.kind === "Raster" && video) {
    // ffmpeg reads an MP4 by seeking (its index may be at the end): a local copy, removed with workDir.
    videoPath = path.join(workDir, "template.mp4");
    await pipeline((await store.get(video.storageKey)) as NodeJS.ReadableStream, createWriteStream(videoPath), { signal });
  }
  const overlay = overlayConfigSchema.safeParse(template.overlay ?? { version: 1 });
  return renderMedia({
    format: row.format as "mp4" | "gif" | "png",
    lottie,
    assets,
    video: videoPath,
    overlay: overlay.success ? { fit: overlay.data.fit, offsetSeconds: overlay.data.offsetSeconds } : undefined,
    stillFrame: manifest?.posterFrame,
    captions: captions ? { mode: row.captions as "attach" | "burn", vttPath: captions, language: iso639_2(row.locale) } : undefined,
    thumbnail: row.purpose === "thumbnail",
    workDir,
    ffmpegPath: getConfig().ffmpegPath,
    signal,
  });
}

/** The captions as a WebVTT file in workDir (removed with it); null when the template has none to show. */
async function writeCaptions(workDir: string, cues: ReturnType<typeof templateCues>): Promise<string | null> {
  if (!cues.some((cue) => cue.kind === "captions")) return null;
  const vttPath = path.join(workDir, "captions.vtt");
  await writeFile(vttPath, toWebVtt(cues, "captions"));
  return vttPath;
}

/** ISO 639-2/T codes of the languages the player speaks (an MP4 track's language); "und" for others. */
const iso639_2: (locale: string | null) => string = (() => {
  const codes: Record<string, string> = { en: "eng", de: "deu", fr: "fra", es: "spa", pt: "por", it: "ita", nl: "nld", ja: "jpn", ar: "ara", pl: "pol", sv: "swe", da: "dan", fi: "fin", nb: "nob", tr: "tur", zh: "zho", ko: "kor", ru: "rus", he: "heb" };
  return (locale) => codes[new Intl.Locale(locale ?? "en-US").language] ?? "und";
})();

type Outcome =
  | { status: "done"; error: null; storageKey: string; media: RenderedMedia }
  | { status: "failed"; error: string; /** The attempts to record, when not the claimed count. */ attempts?: number };

/**
 * Records the outcome if the attempt still holds its claim, and queues the webhook event in the
 * same transaction; nothing when another attempt got there first.
 */
async function finish(db: Db, claimed: RenderRow, outcome: Outcome): Promise<void> {
  return db.transaction(async (tx) => {
    const media = outcome.status === "done" ? outcome.media : null;
    const [row] = await tx
      .update(schema.renders)
      .set({
        status: outcome.status,
        error: outcome.error,
        storageKey: outcome.status === "done" ? outcome.storageKey : null,
        bytes: media?.bytes ?? null,
        width: media?.width ?? null,
        height: media?.height ?? null,
        frames: media?.frames ?? null,
        durationMs: media?.durationMs ?? null,
        finishedAt: sql`now()`,
        ...(outcome.status === "failed" && outcome.attempts !== undefined ? { attempts: outcome.attempts } : {}),
      })
      .where(holdsClaim(claimed))
      .returning();
    if (!row) return;
    const download = row.status === "done" ? signRenderDownload(row.id, row.purpose as RenderPurpose) : null;
    await emitWebhookEvent(tx, {
      projectId: row.projectId,
      type: row.status === "done" ? "render.completed" : "render.failed",
      data: {
        renderId: row.id,
        templateId: row.templateId,
        ...(row.campaignId ? { campaignId: row.campaignId, recipientId: row.recipientId } : {}),
        status: row.status,
        format: row.format,
        ...(row.error ? { error: row.error } : {}),
        ...(download ? { downloadUrl: download.url, expiresAt: download.expiresAt.toISOString() } : {}),
        metadata: row.metadata ?? {},
      },
      extraUrl: row.webhookUrl,
    });
  });
}
