import { z } from "zod";
import { channelSchema } from "@/lib/shares/contract";

// The channels API's shapes (docs/adr/0150-release-control.md).

const templateRef = z.object({ id: z.uuid(), name: z.string(), version: z.string(), status: z.string() });

export const channelServingSchema = z.object({
  channel: channelSchema,
  served: templateRef.nullable().describe("The template the channel serves; null when there is none. A viewer of a share running an A/B test is given one of its variants instead"),
  because: z
    .enum(["pinned", "newest-testing", "production", "none"])
    .describe("pinned: chosen for this channel; newest-testing: no pin, the newest Testing template; production: the Production template; none: nothing to serve"),
  pin: z.object({ template: templateRef, pinnedBy: z.uuid().nullable(), pinnedAt: z.iso.datetime() }).nullable(),
  share: z.object({ slug: z.string(), status: z.string() }).nullable().describe("The channel's share, when there is one"),
  variants: z.array(z.object({ template: templateRef, weight: z.number().int() })).describe("The share's A/B test, in order (the first is the control); empty when none runs"),
});

export const channelListSchema = z.object({ items: z.array(channelServingSchema) });

export const pinBody = z.strictObject({
  templateId: z.uuid({ error: "must be a template id, or null to unpin" }).nullable().describe("A Testing template of the project, or null: the channel serves the newest Testing template again"),
});

export type ChannelServingJson = z.infer<typeof channelServingSchema>;

/** PUT …/variants: the share's A/B test. */
export const putVariantsBody = z.strictObject({
  variants: z
    .array(
      z.strictObject({
        templateId: z.uuid({ error: "must be a template id" }),
        weight: z.number({ error: "must be a whole number from 1 to 99" }).int("must be a whole number from 1 to 99").min(1, "must be at least 1").max(99, "must be at most 99"),
      }),
    )
    .max(4, "a test has at most 4 variants")
    .refine((list) => list.length !== 1, "a test needs 2 to 4 variants (an empty list ends it)")
    .refine((list) => list.length === 0 || list.reduce((sum, variant) => sum + variant.weight, 0) === 100, "the weights must add up to 100")
    .refine((list) => new Set(list.map((variant) => variant.templateId)).size === list.length, "each template may be a variant once")
    .describe("2–4 templates of the project with weights adding up to 100, the first the control; an empty list ends the test"),
});

export const variantsSchema = z.object({
  channel: channelSchema,
  startedAt: z.iso.datetime().nullable().describe("When the test started with these templates; null when none runs"),
  variants: z.array(z.object({ template: templateRef, weight: z.number().int() })).describe("In order: the first is the control"),
});

/** POST …/variants/promote: the winner goes live; the test ends. */
export const promoteBody = z.strictObject({ templateId: z.uuid({ error: "must be a template id" }).describe("One of the share's variants") });
