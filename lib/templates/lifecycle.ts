import { and, eq } from "drizzle-orm";
import { ConflictError } from "@/lib/errors";
import { projects, templateFiles, templates } from "@/lib/db/schema";
import { audited, projectVerb, type AuditedChange } from "@/lib/services/verbs";
import { deleteUnreferencedBlobs } from "./template-blobs";
import { getTemplateFiles, getTemplateRowOrThrow, presentTemplate, type TemplateRow } from "./templates";

/** What the audit trail records of a change to a template: its name and version, and `data`. */
export function templateChange(template: TemplateRow, action: string, data?: Record<string, unknown>): AuditedChange {
  return {
    action,
    targetType: "template",
    targetId: template.id,
    data: { name: template.name, version: template.version, ...data },
  };
}

/**
 * Testing → Production; the project's current Production template → Previous, in one
 * transaction. Deploys of one project are serialized on the project row, so concurrent
 * deploys each succeed in turn and exactly one template ends up Production.
 */
export const deployTemplate = projectVerb("template.deploy", async ({ db, access, write }, templateId: string) => {
  const projectId = access.project.id;
  const deployed = await write(async (tx) => {
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
    const template = await getTemplateRowOrThrow(tx, { projectId, templateId }, true);
    if (template.status !== "Testing") {
      throw new ConflictError(`Only a Testing template can be deployed; this one is ${template.status}. Upload a new version instead.`);
    }
    const now = new Date();
    const demoted = await tx
      .update(templates)
      .set({ status: "Previous" })
      .where(and(eq(templates.projectId, projectId), eq(templates.status, "Production")))
      .returning({ id: templates.id });
    const [row] = await tx
      .update(templates)
      .set({ status: "Production", everProduction: true, deployedAt: now })
      .where(eq(templates.id, template.id))
      .returning();
    return audited(row!, templateChange(row!, "template.deployed", { previousProductionId: demoted[0]?.id ?? null }));
  });
  return presentTemplate(deployed, await getTemplateFiles(db, deployed.id));
});

/** Testing/Previous → Archived; Archived stays (no-op); Production is refused. */
export const archiveTemplate = projectVerb("template.archive", async ({ db, access, write }, templateId: string) => {
  const archived = await write(async (tx) => {
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    // Archiving an archived template changes nothing: no row for the trail.
    if (template.status === "Archived") return audited(template, []);
    if (template.status === "Production") {
      throw new ConflictError("A Production template cannot be archived; deploy a newer version first.");
    }
    const [row] = await tx
      .update(templates)
      .set({ status: "Archived", archivedAt: new Date() })
      .where(eq(templates.id, template.id))
      .returning();
    return audited(row!, templateChange(row!, "template.archived", { from: template.status }));
  });
  return presentTemplate(archived, await getTemplateFiles(db, archived.id));
});

/** Deletes a template that was never Production, then the blobs no other template uses. */
export const deleteTemplate = projectVerb("template.delete", async ({ db, access, write }, templateId: string): Promise<void> => {
  const storageKeys = await write(async (tx) => {
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    if (template.everProduction) {
      throw new ConflictError("A template that was ever Production cannot be deleted; archive it instead.");
    }
    const files = await tx
      .delete(templateFiles)
      .where(eq(templateFiles.templateId, template.id))
      .returning({ storageKey: templateFiles.storageKey });
    await tx.delete(templates).where(eq(templates.id, template.id));
    return audited(
      files.map((file) => file.storageKey),
      templateChange(template, "template.deleted"),
    );
  });
  await deleteUnreferencedBlobs(db, storageKeys);
});
