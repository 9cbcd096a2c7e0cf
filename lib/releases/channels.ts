import { and, eq } from "drizzle-orm";
import { ConflictError, ValidationError } from "@/lib/errors";
import { channelPins, publicVideoShares, shareVariants, templates } from "@/lib/db/schema";
import { channels } from "@/lib/shares/contract";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { lockProject } from "@/lib/templates/lifecycle";
import { findServedTemplate } from "@/lib/templates/served-template";
import { isUuid } from "@/lib/auth/project-access";

// The distribution channels (docs/adr/0150-release-control.md): what each serves and why, and
// the pins that choose a Testing template for DEV or STAGING. PROD follows deploy.

export type PinnableChannel = "DEV" | "STAGING";
const refOf = (row: { id: string; name: string; version: string; status: string }) => ({ id: row.id, name: row.name, version: row.version, status: row.status });

/** Every channel: the template it serves and why, its pin, its share and the share's A/B test. */
export const listChannels = projectVerb("template.read", async ({ db, access }) => {
  const projectId = access.project.id;
  const [pins, shares, variants] = await Promise.all([
    db.select({ pin: channelPins, template: templates }).from(channelPins).innerJoin(templates, eq(templates.id, channelPins.templateId)).where(eq(channelPins.projectId, projectId)),
    db.select({ id: publicVideoShares.id, channel: publicVideoShares.channel, slug: publicVideoShares.slug, status: publicVideoShares.status }).from(publicVideoShares).where(eq(publicVideoShares.projectId, projectId)),
    db
      .select({ variant: shareVariants, template: templates })
      .from(shareVariants)
      .innerJoin(templates, eq(templates.id, shareVariants.templateId))
      .where(eq(shareVariants.projectId, projectId))
      .orderBy(shareVariants.position),
  ]);
  const items = await Promise.all(
    channels.map(async (channel) => {
      const served = await findServedTemplate(db, projectId, channel);
      const pin = pins.find((row) => row.pin.channel === channel);
      const share = shares.find((row) => row.channel === channel);
      return {
        channel,
        served: served ? refOf(served) : null,
        because: served?.because ?? ("none" as const),
        pin: pin ? { template: refOf(pin.template), pinnedBy: pin.pin.pinnedBy, pinnedAt: pin.pin.pinnedAt } : null,
        share: share ? { slug: share.slug, status: share.status } : null,
        variants: share ? variants.filter((row) => row.variant.shareId === share.id).map((row) => ({ template: refOf(row.template), weight: row.variant.weight })) : [],
      };
    }),
  );
  return { items };
});

/** Pins a Testing template to the channel, or unpins it (null); the trail records the change. What the channel serves after it. */
async function pin(ctx: Permitted<"channel.pin-dev" | "channel.pin-staging">, channel: PinnableChannel, templateId: string | null) {
  const projectId = ctx.access.project.id;
  await ctx.write(async (tx) => {
    // The project row first, as deploys and archives take it: they also change pins and templates.
    await lockProject(tx, projectId);
    const [before] = await tx.select().from(channelPins).where(and(eq(channelPins.projectId, projectId), eq(channelPins.channel, channel))).for("update");
    if (templateId === null) {
      if (!before) return audited(null, []);
      await tx.delete(channelPins).where(and(eq(channelPins.projectId, projectId), eq(channelPins.channel, channel)));
      return audited(null, { action: "channel.unpinned", targetType: "channel", targetId: channel, data: { channel, templateId: before.templateId } });
    }
    const [template] = isUuid(templateId) ? await tx.select().from(templates).where(and(eq(templates.id, templateId), eq(templates.projectId, projectId))).for("update") : [];
    if (!template) throw new ValidationError([{ path: "templateId", message: "is not a template of this project" }]);
    if (template.status !== "Testing") {
      throw new ConflictError(`Only a Testing template can be pinned; ${template.name} ${template.version} is ${template.status}.`, "not_testing");
    }
    if (before?.templateId === template.id) return audited(null, []);
    await tx
      .insert(channelPins)
      .values({ projectId, channel, templateId: template.id, pinnedBy: ctx.actor.userId })
      .onConflictDoUpdate({ target: [channelPins.projectId, channelPins.channel], set: { templateId: template.id, pinnedBy: ctx.actor.userId, pinnedAt: new Date() } });
    return audited(null, {
      action: "channel.pinned",
      targetType: "channel",
      targetId: channel,
      data: { channel, templateId: template.id, name: template.name, version: template.version, previousTemplateId: before?.templateId ?? null },
    });
  });
  const { items } = await listChannels(ctx, undefined);
  return items.find((item) => item.channel === channel)!;
}

/** PUT /channels/DEV: an Editor may choose the template developers test. */
export const pinDev = projectVerb("channel.pin-dev", (ctx, templateId: string | null) => pin(ctx, "DEV", templateId));
/** PUT /channels/STAGING: a ProjectManager chooses what is reviewed before a deploy. */
export const pinStaging = projectVerb("channel.pin-staging", (ctx, templateId: string | null) => pin(ctx, "STAGING", templateId));

export const pinVerbs: Record<PinnableChannel, typeof pinDev | typeof pinStaging> = { DEV: pinDev, STAGING: pinStaging };
