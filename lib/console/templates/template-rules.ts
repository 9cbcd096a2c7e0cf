import type { z } from "zod";
import { defaultComparison } from "@/lib/templates/compare-templates";
import type { previewResultSchema, templateSchema, uploadedTemplateSchema } from "@/lib/templates/contract";

// What the console knows about a template as the API sends it, and which lifecycle actions its
// status allows (the API's rules, docs/adr/0029-deploy-and-archive.md): the pages disable a
// button with the same reason the API would refuse it with.

export type TemplateJson = z.infer<typeof templateSchema>;
/** The answer to an upload: the template and what it lacks without being refused for it. */
export type UploadedTemplateJson = z.infer<typeof uploadedTemplateSchema>;
export type TemplateStatus = TemplateJson["status"];
export type TemplateKind = TemplateJson["kind"];
export type PreviewResult = z.infer<typeof previewResultSchema>;

export const templateStatusList = ["Testing", "Production", "Previous", "Archived"] as const satisfies readonly TemplateStatus[];
export const templateKindList = ["LottieStandalone", "Raster"] as const satisfies readonly TemplateKind[];

type Lifecycle = Pick<TemplateJson, "status" | "everProduction">;

/** Why the template cannot be deployed (a Testing one) or rolled back to (a Previous one), or null. */
export function deployBlocker({ status }: Lifecycle): string | null {
  if (status === "Testing" || status === "Previous") return null;
  if (status === "Production") return "This template is already in Production.";
  return "An Archived template cannot be deployed; upload it again as a new version.";
}

/** Why the template cannot be archived, or null. */
export function archiveBlocker({ status }: Lifecycle): string | null {
  if (status === "Production") return "A Production template cannot be archived; deploy a newer version first.";
  if (status === "Archived") return "This template is already archived.";
  return null;
}

/** Why the template cannot be deleted, or null. */
export function deleteBlocker({ everProduction }: Lifecycle): string | null {
  return everProduction ? "A template that was ever in Production cannot be deleted; archive it instead." : null;
}

/** Every file of the template, the assets included. */
export function templateFileList(template: Pick<TemplateJson, "files">): { role: string; name: string; size: number; sha256: string; contentType: string }[] {
  const { assetFiles, ...single } = template.files;
  return [
    ...Object.entries(single).flatMap(([role, file]) => (file ? [{ role, ...file }] : [])),
    ...assetFiles.map((file) => ({ role: "assetFiles", ...file })),
  ];
}

export function totalSize(template: Pick<TemplateJson, "files">): number {
  return templateFileList(template).reduce((sum, file) => sum + file.size, 0);
}

/** The template that is Production now, other than `except`. */
export function currentProduction(templates: readonly TemplateJson[], except?: string): TemplateJson | null {
  return templates.find((template) => template.status === "Production" && template.id !== except) ?? null;
}

/**
 * The list as it will be once `templateId` is deployed: it becomes Production and the current
 * Production one becomes Previous (for the optimistic update; the server's answer replaces it).
 */
export function withDeployed(templates: readonly TemplateJson[], templateId: string, now: string): TemplateJson[] {
  return templates.map((template) => {
    if (template.id === templateId) return { ...template, status: "Production", everProduction: true, deployedAt: now, scheduledDeployAt: null };
    if (template.status === "Production") return { ...template, status: "Previous" };
    return template;
  });
}

/**
 * The compare page (shareable: both ids in the query) for `focusId`, else the newest template,
 * against its default counterpart (defaultComparison); with the focus alone when it has none.
 */
export function comparePath(projectId: string, templates: readonly TemplateJson[], focusId?: string): string {
  const base = `/projects/${projectId}/templates/compare`;
  const pair = defaultComparison(templates, focusId);
  if (pair) return `${base}?a=${pair.a.id}&b=${pair.b.id}`;
  return focusId ? `${base}?b=${focusId}` : base;
}
