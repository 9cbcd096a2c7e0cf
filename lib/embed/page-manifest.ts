import { NotFoundError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { isCredentialActive } from "@/lib/credentials/active-credentials";
import { shareForViewer } from "@/lib/releases/serve-variant";
import type { Db } from "@/lib/db";
import { recipientViewerHash } from "@/lib/campaigns/import-recipients";
import { findShareRecipient } from "@/lib/campaigns/recipient-share";
import { findProjectPublicShare, findPublicShareFor, viewerShareText, type PublicShare } from "@/lib/shares/public-share";
import { chargeShareMiss } from "@/lib/shares/share-lookup-limit";
import { playedData } from "@/shared/templates/data-rules";
import { loadLottie } from "@/lib/templates/load-lottie";
import type { Lottie } from "@/shared/templates/lottie";
import { chaptersOf } from "@/lib/templates/manifest";
import type { BindingManifest } from "@/shared/templates/manifest";
import { getTemplateFiles, type TemplateFileRow, type TemplateRow } from "@/lib/templates/templates";
import { verifyEmbedSessionToken, type EmbedSessionClaims } from "@/lib/tokens/embed-session-token";
import { mintIngestToken } from "@/lib/tokens/ingest-token";
import { TokenError } from "@/lib/tokens/tokens";
import type { ManifestChapter, ManifestFileUrls, PageManifest } from "@/shared/embed-protocol";
import { signFileUrl } from "./file-url";

// The page manifest (docs/design.md, Tokens): everything the player needs to play a share, built for
// one view. GET /api/embed/manifest serves it; the player page inlines it.

/**
 * A share slug looked up for a viewer at a client address (unknown slugs are limited per
 * address), with a campaign recipient's token for a personal URL, or an embed session.
 */
export type ManifestSource = { share: string; address: string; recipient?: string; viewer?: string | null } | { session: string };

const unavailable = () => new NotFoundError("This video is not available.");

/**
 * The manifest for a share slug or an embed-session token; 404 for an unavailable share, 401 for
 * a bad token or one whose credential has been revoked.
 */
export async function buildPageManifest(db: Db, source: ManifestSource): Promise<PageManifest> {
  const viewer = await resolveViewer(db, source);
  return manifestFor(db, viewer.share, viewer.session, viewer.data);
}

/** Who watches what: the share as served to this viewer (their A/B variant), their session, and their data over the share's. */
export type ResolvedViewer = { share: PublicShare; session: EmbedSessionClaims | null; data: Record<string, string> };

/**
 * The share, session and data a manifest source stands for (the page manifest, the WebVTT API):
 * 404 for an unavailable share or an unknown recipient token (a miss charged to the address),
 * 401 for a bad session token or one whose credential has been revoked.
 */
export async function resolveViewer(db: Db, source: ManifestSource): Promise<ResolvedViewer> {
  if ("share" in source) {
    const share = await findPublicShareFor(db, source.share, source.address);
    if (!share) throw unavailable();
    if (source.recipient === undefined) {
      const served = await shareForViewer(db, share, source.viewer ? { cookie: source.viewer } : null);
      return { share: served, session: null, data: bindingData(served.personalizationData) };
    }
    const recipient = await findShareRecipient(db, share, source.recipient);
    if (!recipient) {
      chargeShareMiss(source.share, source.address);
      throw unavailable();
    }
    const served = await shareForViewer(db, share, { viewerHash: recipientViewerHash(share.projectId, recipient.id) });
    // A recipient's data (a campaign's personal URL) goes over the share's, as an embed session's does.
    return { share: served, session: null, data: bindingData(served.personalizationData, recipient.data) };
  }
  const session = await verifyEmbedSessionToken(source.session);
  // Revoking the credential that minted a session ends it: the same 401 as any invalid token.
  if (!(await isCredentialActive(db, session.projectId, session.credentialId))) {
    throw new TokenError("invalid", `credential ${session.credentialId} is not active`);
  }
  const share = await findSessionShare(db, session);
  if (!share) throw unavailable();
  const served = await shareForViewer(db, share, session.viewerHash ? { viewerHash: session.viewerHash } : { session: source.session });
  return { share: served, session, data: bindingData(served.personalizationData, session.personalizationData) };
}

/** The share a session names, only if it is available and belongs to the session's project and organization. */
async function findSessionShare(db: Db, session: EmbedSessionClaims): Promise<PublicShare | null> {
  const share = await findProjectPublicShare(db, session.projectId, session);
  return share?.organizationId === session.organizationId ? share : null;
}

/**
 * Personalization values are strings (the preview API's rule); numbers and booleans in stored
 * data are written as text, anything else (objects, null) cannot be shown and is left out.
 */
export function bindingData(...layers: (Record<string, unknown> | null | undefined)[]): Record<string, string> {
  return Object.assign({}, ...layers.map(playedData)) as Record<string, string>;
}

async function manifestFor(db: Db, share: PublicShare, session: EmbedSessionClaims | null, data: Record<string, string>): Promise<PageManifest> {
  const allowedOrigins = session?.allowedOrigins ?? null;
  const ingest = await mintIngestToken({
    organizationId: share.organizationId,
    projectId: share.projectId,
    shareId: share.id,
    channel: share.channel,
    allowedOrigins,
    // The page's events count for the template it plays, whatever they claim (docs/adr/0133-which-template-an-event-counts-for.md).
    templateId: share.template?.id,
    templateVersion: share.template?.version,
  });
  const served = share.template && (await describeTemplate(db, share.template));
  // Filled here, so that the player never shows a raw {{placeholder}} (docs/adr/0148-share-text-placeholders.md).
  const text = viewerShareText(share, data);
  return {
    version: 1,
    organizationId: share.organizationId,
    projectId: share.projectId,
    shareId: share.id,
    channel: share.channel,
    title: text.title,
    locale: share.locale,
    template: served?.template ?? null,
    bindings: {
      manifest: served?.bindingManifest ?? null,
      data,
    },
    chapters: served?.chapters ?? [],
    ctas: served?.bindingManifest?.ctas ?? [],
    cta: text.ctaLabel && share.ctaUrl ? { label: text.ctaLabel, url: share.ctaUrl } : null,
    consent: { mode: share.consentMode },
    ingest: { url: getConfig().ingestBaseUrl, token: ingest.token, expiresAt: ingest.expiresAt.toISOString() },
    allowedOrigins,
  };
}

/** The template part of a page manifest: signed file URLs, bindings and chapters in milliseconds. */
export async function describeTemplate(db: Db, row: Omit<NonNullable<PublicShare["template"]>, "because">) {
  const files = await getTemplateFiles(db, row.id);
  const one = (role: string) => files.find((file) => file.role === role) ?? null;
  const lottieFile = one("templateJson");
  const lottie = lottieFile ? await loadLottie(lottieFile) : null;
  const bindingManifest = (row.manifest as BindingManifest | null) ?? null;
  const overlay = row.kind === "Raster" ? overlayOf(row.overlay) : null;
  const urlOf = (file: TemplateFileRow | null) => (file ? signFileUrl(file) : null);
  const fileUrls: ManifestFileUrls = {
    templateJson: urlOf(lottieFile),
    videoFile: urlOf(one("videoFile")),
    posterFile: urlOf(one("posterFile")),
    assets: Object.fromEntries(files.filter((file) => file.role === "assetFiles").map((file) => [file.name, signFileUrl(file)])),
  };
  return {
    template: {
      id: row.id,
      version: row.version,
      kind: row.kind,
      width: row.width ?? 1280,
      height: row.height ?? 720,
      files: fileUrls,
      overlay,
    },
    bindingManifest,
    chapters: lottie ? chapterTimes(bindingManifest, lottie, overlay?.offsetSeconds ?? 0) : [],
  };
}

/** A template's chapters in media milliseconds, as its page manifest lists them (the engagement heatmap's timeline). */
export async function templateChapters(db: Db, row: TemplateRow): Promise<ManifestChapter[]> {
  const lottieFile = (await getTemplateFiles(db, row.id)).find((file) => file.role === "templateJson");
  if (!lottieFile) return [];
  const offsetSeconds = row.kind === "Raster" ? overlayOf(row.overlay).offsetSeconds : 0;
  return chapterTimes((row.manifest as BindingManifest | null) ?? null, await loadLottie(lottieFile), offsetSeconds);
}

function overlayOf(stored: Record<string, unknown> | null): NonNullable<NonNullable<PageManifest["template"]>["overlay"]> {
  const fit = stored?.fit === "cover" || stored?.fit === "fill" ? stored.fit : "contain";
  const offsetSeconds = typeof stored?.offsetSeconds === "number" ? stored.offsetSeconds : 0;
  return { fit, offsetSeconds };
}

/** Chapters in media milliseconds: frame ip is time 0 (plus a Raster overlay's offset). */
function chapterTimes(manifest: BindingManifest | null, lottie: Lottie, offsetSeconds: number): ManifestChapter[] {
  const ms = (frame: number) => Math.round(((frame - lottie.ip) / lottie.fr + offsetSeconds) * 1000);
  return chaptersOf(manifest, lottie).map((chapter) => ({
    id: chapter.id,
    name: chapter.name,
    startMs: ms(chapter.startFrame),
    endMs: ms(chapter.endFrame),
  }));
}
