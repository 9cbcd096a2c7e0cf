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
