import { and, eq } from "drizzle-orm";
import { ConflictError } from "@/lib/errors";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { projects, templateFiles, templates } from "@/lib/db/schema";
import { deleteUnreferencedBlobs } from "./template-blobs";
import { getTemplateFiles, getTemplateRowOrThrow, presentTemplate, type TemplateRow } from "./templates";

export function auditTemplate(tx: Db, actor: Actor, access: ProjectAccess, template: TemplateRow, action: string, data?: Record<string, unknown>) {
  return recordProjectAuditEvent(tx, actor, access, {
    action,
    targetType: "template",
    targetId: template.id,
    data: { name: template.name, version: template.version, ...data },
  });
}

/**
 * Testing → Production; the project's current Production template → Previous, in one
 * transaction. Deploys of one project are serialized on the project row, so concurrent
 * deploys each succeed in turn and exactly one template ends up Production.
 */
export async function deployTemplate(db: Db, actor: Actor, access: ProjectAccess, templateId: string) {
  const projectId = access.project.id;
  const deployed = await db.transaction(async (tx) => {
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
    await auditTemplate(tx, actor, access, row!, "template.deployed", { previousProductionId: demoted[0]?.id ?? null });
    return row!;
  });
  return presentTemplate(deployed, await getTemplateFiles(db, deployed.id));
}

/** Testing/Previous → Archived; Archived stays (no-op); Production is refused. */
export async function archiveTemplate(db: Db, actor: Actor, access: ProjectAccess, templateId: string) {
  const archived = await db.transaction(async (tx) => {
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    if (template.status === "Archived") return template;
    if (template.status === "Production") {
      throw new ConflictError("A Production template cannot be archived; deploy a newer version first.");
    }
    const [row] = await tx
      .update(templates)
      .set({ status: "Archived", archivedAt: new Date() })
      .where(eq(templates.id, template.id))
      .returning();
    await auditTemplate(tx, actor, access, row!, "template.archived", { from: template.status });
    return row!;
  });
  return presentTemplate(archived, await getTemplateFiles(db, archived.id));
}

/** Deletes a template that was never Production, then the blobs no other template uses. */
export async function deleteTemplate(db: Db, actor: Actor, access: ProjectAccess, templateId: string): Promise<void> {
  const storageKeys = await db.transaction(async (tx) => {
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    if (template.everProduction) {
      throw new ConflictError("A template that was ever Production cannot be deleted; archive it instead.");
    }
    const files = await tx
      .delete(templateFiles)
      .where(eq(templateFiles.templateId, template.id))
      .returning({ storageKey: templateFiles.storageKey });
    await tx.delete(templates).where(eq(templates.id, template.id));
    await auditTemplate(tx, actor, access, template, "template.deleted");
    return files.map((file) => file.storageKey);
  });
  await deleteUnreferencedBlobs(db, storageKeys);
}
