import { z } from "zod";
import { NotFoundError } from "@/lib/errors";
import { channelEnum, consentModeEnum, shareStatusEnum, type Channel } from "@/lib/db/schema";
import { characters, isExactHttpUrl, localeRule, maxPersonalizationDataBytes, shareLocale, shareTextLimits } from "./share-rules";

export const channels = channelEnum.enumValues;
export const channelSchema = z.enum(channels);

/** The {channel} path segment: anything but DEV, STAGING or PROD names no share, so 404. */
export function parseChannel(value: string): Channel {
  const result = channelSchema.safeParse(value);
  if (!result.success) throw new NotFoundError(`There is no channel ${JSON.stringify(value)}; channels are ${channels.join(", ")}.`);
  return result.data;
}

export { maxPersonalizationDataBytes } from "./share-rules";

const text = (max: number) =>
  z
    .string()
    .trim()
    .refine((value) => characters(value) >= 1, { error: "must not be empty" })
    .refine((value) => characters(value) <= max, { error: `must be at most ${max} characters` });

const optional = <S extends z.ZodType>(schema: S) => schema.nullish().transform((value) => value ?? null);

/** An absolute http(s) URL written exactly (isExactHttpUrl). */
export const ctaUrlSchema = z.string().max(2048).refine(isExactHttpUrl, { error: "must be an absolute http:// or https:// URL" });

const personalizationDataSchema = z
  .record(z.string(), z.unknown())
  .refine((data) => Buffer.byteLength(JSON.stringify(data)) <= maxPersonalizationDataBytes, {
    error: `must be at most ${maxPersonalizationDataBytes / 1024} KB as JSON`,
  });

/** PUT body. Strict: slug, status and the other service-managed fields are refused (422). */
export const putShareBody = z
  .strictObject({
    publicTitle: text(shareTextLimits.publicTitle),
    publicSubtitle: optional(text(shareTextLimits.publicSubtitle)),
    locale: optional(
      z
        .string()
        .refine((value) => shareLocale(value) !== null, { error: localeRule })
        .transform((value) => shareLocale(value) ?? value)
        .describe("The page's language, language-REGION as a BCP 47 tag (en-US, de-DE, pt-BR, ar-EG, ja-JP), stored in canonical form; the player and landing page speak it, else its language, else English"),
    ),
    ctaLabel: optional(text(shareTextLimits.ctaLabel)),
    ctaUrl: optional(ctaUrlSchema),
    personalizationData: optional(personalizationDataSchema),
    consentMode: z
      .enum(consentModeEnum.enumValues, { error: "must be required or not_required" })
      .nullish()
      .transform((value) => value ?? "not_required"),
    apiCredentialId: z.uuid({ error: "must be an API credential id (UUID)" }),
  })
  .superRefine((body, ctx) => {
    if (body.ctaLabel !== null && body.ctaUrl === null) {
      ctx.addIssue({ code: "custom", path: ["ctaUrl"], message: "is required when ctaLabel is set" });
    }
    if (body.ctaUrl !== null && body.ctaLabel === null) {
      ctx.addIssue({ code: "custom", path: ["ctaLabel"], message: "is required when ctaUrl is set" });
    }
  });

export type PutShareInput = z.infer<typeof putShareBody>;

/** Response shapes, for the OpenAPI document. */
export const shareSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  channel: channelSchema,
  slug: z.string(),
  url: z.url().describe("The public landing page"),
  status: z.enum(shareStatusEnum.enumValues),
  publicTitle: z.string(),
  publicSubtitle: z.string().nullable(),
  locale: z.string().nullable(),
  ctaLabel: z.string().nullable(),
  ctaUrl: z.string().nullable(),
  personalizationData: z.record(z.string(), z.unknown()).nullable(),
  consentMode: z.enum(consentModeEnum.enumValues).describe("required: no analytics leave the page until the viewer accepts"),
  apiCredentialId: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  disabledAt: z.iso.datetime().nullable(),
  disabledBy: z.uuid().nullable(),
  restoredAt: z.iso.datetime().nullable(),
  restoredBy: z.uuid().nullable(),
});

/** PUT's answer: the share, and what the template it plays makes of its personalization data. */
export const savedShareSchema = shareSchema.extend({
  warnings: z
    .array(z.string())
    .describe("The personalization data's problems against the template the channel serves, worded as its live preview words them: unknown keys, text the player shortens, values it replaces by the default"),
});

export const rotatedSlugSchema = z.object({ previousSlug: z.string(), slug: z.string(), share: shareSchema });
