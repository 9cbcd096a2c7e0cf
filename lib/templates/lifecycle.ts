import { and, eq, inArray } from "drizzle-orm";
import { ConflictError, ValidationError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { channelPins, projects, shareVariants, templateFiles, templates } from "@/lib/db/schema";
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

/** A go-live may be scheduled up to a year ahead. */
const maxScheduleAheadMs = 366 * 24 * 60 * 60 * 1000;

/** Testing (a deploy) and Previous (a rollback) can go live; Production is live already; Archived is retired. */
function refuseUndeployable(template: TemplateRow): void {
  if (template.status === "Production") throw new ConflictError("This template is Production already.", "already_production");
  if (template.status === "Archived") throw new ConflictError("An Archived template cannot be deployed; upload it again as a new version.", "template_archived");
}

/**
 * Makes `template` (Testing or Previous) the project's Production template, in the caller's
 * transaction, which holds the project row: the current Production template becomes Previous and
 * loses any channel pin; a scheduled go-live of the deployed template is done with. What the
 * audit trail records: template.deployed, a rollback when the template was Previous.
 */
export async function goLive(tx: Db, template: TemplateRow, data: Record<string, unknown> = {}): Promise<{ row: TemplateRow; change: AuditedChange }> {
  refuseUndeployable(template);
  const demoted = await tx
    .update(templates)
    .set({ status: "Previous" })
    .where(and(eq(templates.projectId, template.projectId), eq(templates.status, "Production")))
    .returning({ id: templates.id, name: templates.name, version: templates.version });
  if (demoted.length > 0) await tx.delete(channelPins).where(inArray(channelPins.templateId, demoted.map((row) => row.id)));
  const [row] = await tx
    .update(templates)
    .set({ status: "Production", everProduction: true, deployedAt: new Date(), deployAt: null, deployScheduledBy: null })
    .where(eq(templates.id, template.id))
    .returning();
  const previous = demoted[0] ?? null;
  return {
    row: row!,
    change: templateChange(row!, "template.deployed", {
      previousProductionId: previous?.id ?? null,
      ...(previous ? { previousVersion: previous.version } : {}),
      ...(template.status === "Previous" ? { rollback: true } : {}),
      ...data,
    }),
  };
}

/**
 * Holds the project row for the rest of the transaction: deploys, rollbacks and go-lives of one
 * project run one after another. `no key update`, not `update`: a change elsewhere in the project
 * that writes a row referencing it (an archive's audit row takes a key-share lock on the project)
 * must not wait for a deploy that waits for that change's template row — a deadlock.
 */
export async function lockProject(tx: Db, projectId: string): Promise<void> {
  await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("no key update");
}

/**
 * Deploy (Testing → Production) or roll back (Previous → Production); the current Production
 * template becomes Previous, in one transaction. Deploys of one project are serialized on the
 * project row, so concurrent deploys each succeed in turn and exactly one template ends up
 * Production. With `at` (a future instant) nothing changes now: the go-live is scheduled, and the
 * release scheduler (./release-scheduler.ts) carries it out then.
 */
export const deployTemplate = projectVerb("template.deploy", async ({ db, actor, access, write }, input: string | { templateId: string; at?: Date | undefined }) => {
  const { templateId, at } = typeof input === "string" ? { templateId: input, at: undefined } : input;
  const projectId = access.project.id;
  const deployed = await write(async (tx) => {
    await lockProject(tx, projectId);
    const template = await getTemplateRowOrThrow(tx, { projectId, templateId }, true);
    refuseUndeployable(template);
    if (at) {
      const ahead = at.getTime() - Date.now();
      if (ahead <= 0) throw new ValidationError([{ path: "at", message: "must be in the future (deploy without it to go live now)" }]);
      if (ahead > maxScheduleAheadMs) throw new ValidationError([{ path: "at", message: "must be within a year" }]);
      const [row] = await tx.update(templates).set({ deployAt: at, deployScheduledBy: actor.userId }).where(eq(templates.id, template.id)).returning();
      const replaced = template.deployAt ? { replacedAt: template.deployAt.toISOString() } : {};
      return audited(row!, templateChange(row!, "template.deploy_scheduled", { at: at.toISOString(), ...replaced }));
    }
    const { row, change } = await goLive(tx, template);
    return audited(row, change);
  });
  return presentTemplate(deployed, await getTemplateFiles(db, deployed.id));
});

/** Cancels a template's scheduled go-live; 409 when none is scheduled. */
export const cancelScheduledDeploy = projectVerb("template.deploy", async ({ db, access, write }, templateId: string) => {
  const cancelled = await write(async (tx) => {
    await lockProject(tx, access.project.id);
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    if (!template.deployAt) throw new ConflictError("No go-live is scheduled for this template.", "not_scheduled");
    const [row] = await tx.update(templates).set({ deployAt: null, deployScheduledBy: null }).where(eq(templates.id, template.id)).returning();
    return audited(row!, templateChange(row!, "template.deploy_cancelled", { at: template.deployAt.toISOString() }));
  });
  return presentTemplate(cancelled, await getTemplateFiles(db, cancelled.id));
});

/** 409 for a template one of the project's shares is A/B testing: archiving or deleting it would end the test unseen. */
async function refuseVariantInTest(tx: Db, template: TemplateRow): Promise<void> {
  const [variant] = await tx.select({ shareId: shareVariants.shareId }).from(shareVariants).where(eq(shareVariants.templateId, template.id)).limit(1);
  if (variant) throw new ConflictError("This template is a variant of a running A/B test; end the test (or promote a variant) first.", "variant_in_test");
}

/**
 * Testing/Previous → Archived; Archived stays (no-op); Production is refused, and so is a variant
 * of a running A/B test. A pin or a scheduled go-live of the template goes with it.
 */
export const archiveTemplate = projectVerb("template.archive", async ({ db, access, write }, templateId: string) => {
  const archived = await write(async (tx) => {
    await lockProject(tx, access.project.id);
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    // Archiving an archived template changes nothing: no row for the trail.
    if (template.status === "Archived") return audited(template, []);
    if (template.status === "Production") {
      throw new ConflictError("A Production template cannot be archived; deploy a newer version first.");
    }
    await refuseVariantInTest(tx, template);
    await tx.delete(channelPins).where(eq(channelPins.templateId, template.id));
    const [row] = await tx
      .update(templates)
      .set({ status: "Archived", archivedAt: new Date(), deployAt: null, deployScheduledBy: null })
      .where(eq(templates.id, template.id))
      .returning();
    return audited(row!, templateChange(row!, "template.archived", { from: template.status }));
  });
  return presentTemplate(archived, await getTemplateFiles(db, archived.id));
});

/** Deletes a template that was never Production, then the blobs no other template uses. */
export const deleteTemplate = projectVerb("template.delete", async ({ db, access, write }, templateId: string): Promise<void> => {
  const storageKeys = await write(async (tx) => {
    await lockProject(tx, access.project.id);
    const template = await getTemplateRowOrThrow(tx, { projectId: access.project.id, templateId }, true);
    if (template.everProduction) {
      throw new ConflictError("A template that was ever Production cannot be deleted; archive it instead.");
    }
    await refuseVariantInTest(tx, template);
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
