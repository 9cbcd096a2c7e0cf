import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { publicVideoShares, shareVariants, templates, type Channel } from "@/lib/db/schema";
import { audited, projectVerb } from "@/lib/services/verbs";
import { lockShareOrThrow } from "@/lib/shares/shares";
import { goLive, lockProject } from "@/lib/templates/lifecycle";
import type { putVariantsBody } from "./contract";

// A share's A/B test (docs/adr/0150-release-control.md): 2–4 templates with weights; every
// viewer is given one of them (./serve-variant.ts), the same one every time. Promote deploys the
// winner and ends the test.

type VariantInput = z.infer<typeof putVariantsBody>["variants"];
const refOf = (row: { id: string; name: string; version: string; status: string }) => ({ id: row.id, name: row.name, version: row.version, status: row.status });

/** The share's variants in order (the first is the control), with their templates. */
export async function shareVariantRows(db: Db, shareId: string) {
  return db
    .select({ variant: shareVariants, template: templates })
    .from(shareVariants)
    .innerJoin(templates, eq(templates.id, shareVariants.templateId))
    .where(eq(shareVariants.shareId, shareId))
    .orderBy(asc(shareVariants.position));
}

async function presentVariants(db: Db, share: { id: string; channel: Channel }) {
  const rows = await shareVariantRows(db, share.id);
  return {
    channel: share.channel,
    startedAt: rows[0]?.variant.startedAt ?? null,
    variants: rows.map((row) => ({ template: refOf(row.template), weight: row.variant.weight })),
  };
}

async function findShareOrThrow(db: Db, projectId: string, channel: Channel) {
  const [share] = await db
    .select({ id: publicVideoShares.id, channel: publicVideoShares.channel })
    .from(publicVideoShares)
    .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, channel)));
  if (!share) throw new NotFoundError(`The project has no ${channel} share.`);
  return share;
}

/** GET …/variants: the share's A/B test, empty when none runs. */
export const getVariants = projectVerb("share.read", async ({ db, access }, channel: Channel) => presentVariants(db, await findShareOrThrow(db, access.project.id, channel)));

/**
 * PUT …/variants: starts (or changes) the share's A/B test, or ends it (an empty list). The
 * templates must be the project's and not Archived. Changing only the weights keeps the test's
 * start; another set of templates starts it again.
 */
export const putVariants = projectVerb("share.write", async ({ db, actor, access, write }, { channel, variants }: { channel: Channel; variants: VariantInput }) => {
  const projectId = access.project.id;
  const share = await write(async (tx) => {
    const share = await lockShareOrThrow(tx, { projectId, channel });
    const before = await shareVariantRows(tx, share.id);
    const ids = variants.map((variant) => variant.templateId);
    const found = ids.length > 0 ? await tx.select().from(templates).where(and(eq(templates.projectId, projectId), inArray(templates.id, ids))) : [];
    const errors = variants.flatMap((variant, index) => {
      const template = found.find((row) => row.id === variant.templateId);
      if (!template) return [{ path: `variants.${index}.templateId`, message: "is not a template of this project" }];
      if (template.status === "Archived") return [{ path: `variants.${index}.templateId`, message: `is Archived (${template.name} ${template.version}); only a template a channel could serve can be a variant` }];
      return [];
    });
    if (errors.length > 0) throw new ValidationError(errors);
    const sameTemplates = before.length === variants.length && before.every((row) => ids.includes(row.variant.templateId));
    const unchanged = sameTemplates && before.every((row, index) => row.variant.templateId === ids[index] && row.variant.weight === variants[index]!.weight);
    if (unchanged) return audited(share, []);
    const startedAt = sameTemplates && before[0] ? before[0].variant.startedAt : new Date();
    await tx.delete(shareVariants).where(eq(shareVariants.shareId, share.id));
    if (variants.length > 0) {
      await tx.insert(shareVariants).values(
        variants.map((variant, position) => ({ shareId: share.id, projectId, templateId: variant.templateId, weight: variant.weight, position, startedAt, startedBy: actor.userId })),
      );
    }
    const described = variants.map((variant) => {
      const template = found.find((row) => row.id === variant.templateId)!;
      return { templateId: template.id, name: template.name, version: template.version, weight: variant.weight };
    });
    const action = variants.length === 0 ? "share.test_ended" : before.length === 0 ? "share.test_started" : "share.test_changed";
    return audited(share, { action, targetType: "public_video_share", targetId: share.id, data: { channel, slug: share.slug, variants: described } });
  });
  return presentVariants(db, share);
});

/**
 * POST …/variants/promote: the winner becomes Production (deployed, or rolled back to, unless it
 * is Production already) and the test ends, in one transaction. Needs the right to deploy.
 */
export const promoteVariant = projectVerb("template.deploy", async ({ db, access, write }, { channel, templateId }: { channel: Channel; templateId: string }) => {
  const projectId = access.project.id;
  const share = await write(async (tx) => {
    await lockProject(tx, projectId);
    const share = await lockShareOrThrow(tx, { projectId, channel });
    const rows = await shareVariantRows(tx, share.id);
    if (rows.length === 0) throw new ConflictError(`The ${channel} share runs no A/B test.`, "no_test");
    const winner = rows.find((row) => row.template.id === templateId);
    if (!winner) throw new ValidationError([{ path: "templateId", message: "is not a variant of this share's test" }]);
    const changes = [];
    if (winner.template.status !== "Production") changes.push((await goLive(tx, winner.template, { promotedFrom: { channel, slug: share.slug } })).change);
    await tx.delete(shareVariants).where(eq(shareVariants.shareId, share.id));
    changes.push({
      action: "share.test_promoted",
      targetType: "public_video_share",
      targetId: share.id,
      data: { channel, slug: share.slug, winner: { templateId, name: winner.template.name, version: winner.template.version }, variants: rows.map((row) => ({ templateId: row.template.id, weight: row.variant.weight })) },
    });
    return audited(share, changes);
  });
  return presentVariants(db, share);
});
