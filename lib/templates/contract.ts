import { z } from "zod";
import { templateKindEnum, templateStatusEnum } from "@/lib/db/schema";

export const templateKinds = templateKindEnum.enumValues;
export const templateStatuses = templateStatusEnum.enumValues;

/** 250 MB (262,144,000 bytes), counted on the whole multipart body. */
export const maxUploadBytes = 250 * 1024 * 1024;

/** The text fields of the upload form (files are checked as they stream). */
export const uploadFieldsSchema = z.strictObject({
  name: z.string().trim().min(1, { error: "is required" }).max(200),
  version: z
    .string()
    .regex(/^\d{1,6}\.\d{1,6}$/, { error: "must be major.minor, e.g. 1.0 or 2.13" })
    .default("1.0"),
  kind: z.enum(templateKinds, { error: `must be one of ${templateKinds.join(", ")}` }),
});

export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** Form field names of files; assetFiles may repeat, the others appear at most once. */
export const singleFileRoles = ["templateJson", "manifestJson", "overlayJson", "videoFile", "posterFile"] as const;
export type SingleFileRole = (typeof singleFileRoles)[number];
export type FileRole = SingleFileRole | "assetFiles";

/** overlayJson (Raster only): how the Lottie overlay sits on the video. */
export const overlayConfigSchema = z.strictObject({
  version: z.literal(1),
  fit: z.enum(["contain", "cover", "fill"]).default("contain"),
  offsetSeconds: z.number().min(0).max(3600).default(0),
});

export const listTemplatesQuery = z.strictObject({
  status: z.enum(templateStatuses, { error: `must be one of ${templateStatuses.join(", ")}` }).optional(),
});

export const idempotencyKeySchema = z
  .string()
  .min(1, { error: "must not be empty" })
  .max(255, { error: "must be at most 255 characters" })
  .regex(/^[\x21-\x7e]+$/, { error: "must be printable ASCII without spaces" });

/** Response shapes, for the OpenAPI document. */
const fileSchema = z.object({ name: z.string(), size: z.number().int(), sha256: z.string(), contentType: z.string() });

export const templateSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: z.string(),
  version: z.string(),
  kind: z.enum(templateKinds),
  status: z.enum(templateStatuses),
  files: z.object({
    templateJson: fileSchema.optional(),
    manifestJson: fileSchema.optional(),
    overlayJson: fileSchema.optional(),
    videoFile: fileSchema.optional(),
    posterFile: fileSchema.optional(),
    assetFiles: z.array(fileSchema),
  }),
  fields: z.array(z.object({ key: z.string(), type: z.enum(["text", "image"]) }).loose()),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: z.uuid().nullable(),
  deployedAt: z.iso.datetime().nullable(),
  scheduledDeployAt: z.iso.datetime().nullable().describe("A scheduled go-live (POST …/deploy with `at`): the template becomes Production then; null when none is scheduled"),
  archivedAt: z.iso.datetime().nullable(),
  everProduction: z.boolean(),
});

/** The answer to an upload (and to completing an upload session): the template, and what it lacks without being refused for it. */
export const uploadedTemplateSchema = templateSchema.extend({
  warnings: z
    .array(z.string())
    .describe("What the upload lacks without being refused for it, e.g. an image the animation shows that only personalization data fills; empty when nothing"),
});

export const previewResultSchema = z.object({
  url: z.url().describe("Signed; expires after 15 minutes"),
  expiresAt: z.iso.datetime(),
  width: z.number().int(),
  height: z.number().int(),
  frame: z.number(),
  warnings: z.array(z.string()),
});


/** POST …/deploy: now (no body, or no `at`), or a scheduled go-live at `at`. */
export const deployBody = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z" })
    .transform((value) => new Date(value))
    .optional()
    .describe("A future instant (within a year): the go-live is scheduled for then instead of now"),
});
