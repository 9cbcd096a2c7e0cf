import { z } from "zod";
import { canonicalLocale } from "@/shared/i18n/locale";
import { previewDataLimits } from "./preview-limits";

// POST …/templates/{templateId}/preview body: {data: {key: string}}.

/** A BCP 47 language tag (de-DE, pt-BR, ja): formatted values (dates, amounts) are shown in it. */
export const localeBodySchema = z
  .string({ error: "must be a string" })
  .max(35, { error: "must be at most 35 characters" })
  .refine((tag) => canonicalLocale(tag) !== null, { error: "must be a BCP 47 language tag, e.g. de-DE or pt-BR" });

/**
 * Strict: unknown members are a 422; a value that is not a string is a 422 naming its key
 * (`data.firstName: must be a string`). Keys that match no field are not errors here: the
 * preview answers them as warnings.
 */
export const previewBodySchema = z.strictObject({
  data: z
    .record(
      z.string().max(previewDataLimits.maxKeyLength, { error: `keys must be at most ${previewDataLimits.maxKeyLength} characters` }),
      z.string({ error: "must be a string" }).max(previewDataLimits.maxValueLength, {
        error: `must be at most ${previewDataLimits.maxValueLength} characters`,
      }),
    )
    .refine((data) => Object.keys(data).length <= previewDataLimits.maxKeys, {
      error: `must have at most ${previewDataLimits.maxKeys} keys`,
    }),
  locale: localeBodySchema.optional().describe("BCP 47 (de-DE): the fields' formatted values are shown in it; default en-US"),
});

export type PreviewBody = z.infer<typeof previewBodySchema>;

/** Parses a preview body or throws the ZodError that lib/api/errors maps to a 422 list. */
export function parsePreviewBody(json: unknown): PreviewBody {
  return previewBodySchema.parse(json);
}
