import { z } from "zod";
import { NotFoundError } from "@/lib/api/errors";
import { channelEnum, consentModeEnum, shareStatusEnum, type Channel } from "@/lib/db/schema";

export const channels = channelEnum.enumValues;
export const channelSchema = z.enum(channels);

/** The {channel} path segment: anything but DEV, STAGING or PROD names no share, so 404. */
export function parseChannel(value: string): Channel {
  const result = channelSchema.safeParse(value);
  if (!result.success) throw new NotFoundError(`There is no channel ${JSON.stringify(value)}; channels are ${channels.join(", ")}.`);
  return result.data;
}

export const maxPersonalizationDataBytes = 16 * 1024;

/** Length in Unicode code points, as PostgreSQL's char_length counts it (an emoji is one character). */
const characters = (value: string) => [...value].length;

const text = (max: number) =>
  z
    .string()
    .trim()
    .refine((value) => characters(value) >= 1, { error: "must not be empty" })
    .refine((value) => characters(value) <= max, { error: `must be at most ${max} characters` });

const optional = <S extends z.ZodType>(schema: S) => schema.nullish().transform((value) => value ?? null);

/**
 * An absolute http(s) URL written exactly: no surrounding or embedded whitespace or control
 * characters, so a browser cannot read it as another scheme (`javascript:`, ` javascript:`).
 */
export const ctaUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(value) && isHttpUrl(value), {
    error: "must be an absolute http:// or https:// URL",
  });

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const personalizationDataSchema = z
  .record(z.string(), z.unknown())
  .refine((data) => Buffer.byteLength(JSON.stringify(data)) <= maxPersonalizationDataBytes, {
    error: `must be at most ${maxPersonalizationDataBytes / 1024} KB as JSON`,
  });

/** PUT body. Strict: slug, status and the other service-managed fields are refused (422). */
export const putShareBody = z
  .strictObject({
    publicTitle: text(160),
    publicSubtitle: optional(text(280)),
    locale: optional(z.string().regex(/^[a-z]{2}-[A-Z]{2}$/, { error: "must be language-REGION, e.g. en-US or pt-BR" })),
    ctaLabel: optional(text(80)),
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

export const rotatedSlugSchema = z.object({ previousSlug: z.string(), slug: z.string(), share: shareSchema });
