import { getConfig } from "@/lib/config";
import { projectVerb } from "@/lib/services/verbs";
import { getTemplateRowOrThrow } from "@/lib/templates/templates";
import type { PageManifest } from "@/shared/embed-protocol";
import { describeTemplate } from "./page-manifest";

/**
 * The page manifest of the console's live preview: one template of an authorized project, any
 * status, with its defaults and no share. It carries no ingest token, so nothing a preview
 * plays reaches the project's analytics; only the app's own pages may drive it (INIT from
 * PUBLIC_BASE_URL's origin, the same origin the console's API calls must come from).
 */
export const buildTemplatePreviewManifest = projectVerb("template.read", async ({ db, access }, templateId: string): Promise<PageManifest> => {
  const row = await getTemplateRowOrThrow(db, { projectId: access.project.id, templateId });
  const served = await describeTemplate(db, row);
  return {
    version: 1,
    organizationId: access.project.organizationId,
    projectId: access.project.id,
    shareId: null,
    channel: null,
    title: `${row.name} ${row.version} (preview)`,
    locale: null,
    template: served.template,
    bindings: { manifest: served.bindingManifest, data: {} },
    chapters: served.chapters,
    ctas: served.bindingManifest?.ctas ?? [],
    cta: null,
    consent: { mode: "not_required" },
    ingest: null,
    allowedOrigins: [new URL(getConfig().publicBaseUrl).origin],
  };
});
