import { projectVerb } from "@/lib/services/verbs";
import { bindingFieldsOf } from "@/shared/templates/bindings";
import type { BindingManifest, ManifestCta, ManifestTarget, TemplateField } from "@/shared/templates/manifest";
import { loadLottie } from "./load-lottie";
import { chaptersOf, type Chapter } from "./manifest";
import { getTemplateFiles, getTemplateRowOrThrow } from "./templates";

export type OutlineField = TemplateField & { target: ManifestTarget };

/**
 * What a template binds and how it is cut: its fields with their targets, its chapters and its
 * CTAs; its frame rate and length in frames (its animation's, the overlay's for Raster; null without one).
 */
export type TemplateOutline = { fields: OutlineField[]; chapters: Chapter[]; ctas: ManifestCta[]; frameRate: number | null; durationFrames: number | null };

/**
 * The console's detail and compare pages: the template API lists fields without their targets,
 * and no chapters or CTAs. Templates are immutable, so this is read once, when the page renders.
 */
export const getTemplateOutline = projectVerb("template.read", async ({ db, access }, templateId: string): Promise<TemplateOutline> => {
  const row = await getTemplateRowOrThrow(db, { projectId: access.project.id, templateId });
  const manifest = (row.manifest as BindingManifest | null) ?? null;
  const lottieFile = (await getTemplateFiles(db, row.id)).find((file) => file.role === "templateJson");
  const lottie = lottieFile ? await loadLottie(lottieFile) : null;
  const stored = new Map((row.fields as TemplateField[]).map((field) => [field.key, field]));
  const bound = lottie ? bindingFieldsOf(manifest, lottie) : (manifest?.fields ?? []);
  return {
    fields: bound.map((field) => ({
      key: field.key,
      type: field.type,
      target: field.target,
      default: stored.get(field.key)?.default ?? field.default ?? null,
      maxLength: stored.get(field.key)?.maxLength ?? field.maxLength ?? null,
      ...(field.strict === true ? { strict: true as const } : {}),
    })),
    chapters: lottie ? chaptersOf(manifest, lottie) : [],
    ctas: manifest?.ctas ?? [],
    frameRate: row.frameRate,
    durationFrames: row.inPoint !== null && row.outPoint !== null ? row.outPoint - row.inPoint : null,
  };
});
