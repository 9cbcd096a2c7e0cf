import { and, desc, eq } from "drizzle-orm";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { schema } from "@/lib/db";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { templateCues } from "@/lib/embed/viewer-cues";
import { applyBindings } from "@/shared/templates/bindings";
import { loadLottie } from "@/lib/templates/load-lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import { getTemplateFiles, getTemplateRowOrThrow } from "@/lib/templates/templates";
import { checkWebhookUrl } from "@/lib/webhooks/url-safety";
import { signRenderDownload, type RenderPurpose } from "./download-url";
import { enqueueRenders } from "./queue";
import type { RenderRow } from "./run-render";
import { canonicalLocale } from "@/shared/i18n/locale";
import { captionsRefusal, type CreateRenderBody, type RenderCaptions, type RenderFormat, type RenderStatus } from "./contract";

/** The API's view of a render; a finished one carries a fresh signed download URL. */
export function presentRender(row: RenderRow, now = Date.now()) {
  const download = row.status === "done" && row.storageKey ? signRenderDownload(row.id, row.purpose as RenderPurpose, now) : null;
  return {
    id: row.id,
    projectId: row.projectId,
    templateId: row.templateId,
    campaignId: row.campaignId,
    recipientId: row.recipientId,
    purpose: row.purpose as RenderPurpose,
    format: row.format as RenderFormat,
    locale: row.locale,
    captions: row.captions as RenderCaptions,
    status: row.status as RenderStatus,
    error: row.error,
    attempts: row.attempts,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    frames: row.frames,
    durationMs: row.durationMs,
    metadata: row.metadata,
    webhookUrl: row.webhookUrl,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    ...(download ? { downloadUrl: download.url, expiresAt: download.expiresAt } : {}),
  };
}

/**
 * The template and the keys of `data` that match no field of it, as the preview reports them.
 * Binding the data here (without rendering) also checks the template can be read before a job is queued.
 */
async function checkData({ db, access }: Permitted<"render.create">, templateId: string, data: Record<string, string>, locale: string | null, captions: RenderCaptions) {
  const template = await getTemplateRowOrThrow(db, { projectId: access.project.id, templateId });
  const templateJson = (await getTemplateFiles(db, template.id)).find((file) => file.role === "templateJson");
  if (!templateJson) return { template, warnings: Object.keys(data).map((key) => `unknown key "${key}"`) };
  const lottie = await loadLottie(templateJson);
  const bound = applyBindings({ lottie, manifest: template.manifest as BindingManifest | null, data, locale });
  // Unknown keys, and values a field's format cannot read ("renewalDate" is not an ISO 8601 date…).
  const warnings = bound.warnings.filter((warning) => warning.startsWith("unknown key") || warning.includes("shown as given"));
  if (captions !== "none" && !templateCues(lottie, template, data, locale).some((cue) => cue.kind === "captions")) {
    warnings.push(`captions: the template declares no captions cues, so the render has none`);
  }
  return { template, warnings };
}

/**
 * Queues a render of the template with the data: 202 {id, status: "queued", warnings}. Its
 * webhookUrl is checked now as an endpoint's URL is when saved (a public address unless
 * WEBHOOK_ALLOW_PRIVATE=1; a host that does not resolve now is a warning), and again by the
 * delivery worker on the addresses it connects to. The trail records `render.created`; the
 * worker is woken once the row is committed.
 */
export const createRender = projectVerb("render.create", async (ctx, { templateId, ...body }: CreateRenderBody & { templateId: string }) => {
  const urlWarnings: string[] = [];
  if (body.webhookUrl !== undefined) {
    const check = await checkWebhookUrl(body.webhookUrl);
    if (!check.ok) throw new ValidationError([{ path: "webhookUrl", message: check.reason }]);
    if (check.warning) urlWarnings.push(`webhookUrl: ${check.warning}`);
  }
  const refusal = captionsRefusal(body.format, body.captions);
  if (refusal) throw new ValidationError([{ path: "captions", message: refusal }]);
  // Stored canonical (de-de → de-DE): the worker formats with it as given.
  const locale = body.locale === undefined ? null : canonicalLocale(body.locale);
  const checked = await checkData(ctx, templateId, body.data, locale, body.captions);
  const warnings = [...checked.warnings, ...urlWarnings];
  const row = await ctx.write(async (tx) => {
    const [row] = await tx
      .insert(schema.renders)
      .values({
        projectId: ctx.access.project.id,
        templateId,
        format: body.format,
        locale,
        captions: body.captions,
        data: body.data,
        metadata: body.metadata ?? null,
        webhookUrl: body.webhookUrl ?? null,
        createdBy: ctx.actor.userId,
      })
      .returning();
    // The template by its name and version (ADR 0113); the data, metadata and webhook URL stay out of the trail.
    const { name, version } = checked.template;
    return audited(row!, { action: "render.created", targetType: "render", targetId: row!.id, data: { templateId, name, version, format: row!.format, captions: row!.captions } });
  });
  await enqueueRenders([row.id]);
  return { id: row.id, status: row.status as RenderStatus, warnings };
});

/** A render of the template within the authorized project, or a 404. */
export async function getRenderOrThrow({ db, access }: Permitted<"render.read">, templateId: string, renderId: string): Promise<RenderRow> {
  const notFound = new NotFoundError(`Render ${renderId} was not found.`);
  if (!isUuid(renderId) || !isUuid(templateId)) throw notFound;
  const [row] = await db
    .select()
    .from(schema.renders)
    .where(and(eq(schema.renders.id, renderId), eq(schema.renders.templateId, templateId), eq(schema.renders.projectId, access.project.id)));
  if (!row) throw notFound;
  return row;
}

/** A render: its status, and a signed download URL once done. */
export const getRender = projectVerb("render.read", async (ctx, { templateId, renderId }: { templateId: string; renderId: string }) =>
  presentRender(await getRenderOrThrow(ctx, templateId, renderId)),
);

/** The template's renders, newest first. */
export const listRenders = projectVerb("render.read", async ({ db, access }, { templateId, limit }: { templateId: string; limit: number }) => {
  await getTemplateRowOrThrow(db, { projectId: access.project.id, templateId });
  const rows = await db
    .select()
    .from(schema.renders)
    .where(and(eq(schema.renders.projectId, access.project.id), eq(schema.renders.templateId, templateId)))
    .orderBy(desc(schema.renders.createdAt), desc(schema.renders.id))
    .limit(limit);
  return rows.map((row) => presentRender(row));
});
