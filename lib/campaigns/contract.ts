import { z } from "zod";
import { channelSchema } from "@/lib/shares/contract";

// Campaign inputs and outputs: the handlers validate with these, the OpenAPI document describes them.

/** A column name of an uploaded file, and a template field key it may be renamed to. */
const columnName = z.string().trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" });
const fieldKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { error: "must be a template field key (letters, digits, underscores)" });

export const createCampaignBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(120, { error: "must be at most 120 characters" }),
  channel: channelSchema,
  fieldMap: z
    .record(columnName, fieldKey)
    .refine((map) => Object.keys(map).length <= 200, { error: "must map at most 200 columns" })
    .optional()
    .describe("CSV column → template field key; a column not named here maps to the field of the same key"),
});

export type CreateCampaignInput = z.infer<typeof createCampaignBody>;

/** The most recipients one JSON batch may carry; bigger sends go as CSV. */
export const maxJsonBatchRecipients = 10_000;

const cellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const recipientBatchBody = z.strictObject({
  recipients: z
    .array(z.record(z.string().max(200), cellValue), { error: "must be a list of recipients" })
    .min(1, { error: "must list at least one recipient" })
    .max(maxJsonBatchRecipients, { error: `must list at most ${maxJsonBatchRecipients} recipients (send more as CSV)` })
    .describe("Each recipient: its field values, and optionally id (or recipient_id, external_id) and email"),
});

export const listRecipientsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,700}$/, { error: "must be the nextCursor of a previous page" })
    .optional(),
});

export type ListRecipientsQuery = z.infer<typeof listRecipientsQuery>;

export const importProblemSchema = z.object({
  line: z.number().int().nullable().describe("The file's line (1 is the header); for a JSON batch, the recipient's position (1-based)"),
  column: z.string().optional(),
  code: z.enum(["unknown_column", "missing_field", "too_long", "not_image", "field_count", "duplicate_column", "unusable_id", "malformed"]),
  message: z.string(),
  severity: z.enum(["warning", "error"]),
});

export type ImportProblem = z.infer<typeof importProblemSchema>;

export const campaignImportSchema = z.object({
  id: z.uuid(),
  campaignId: z.uuid(),
  source: z.enum(["csv", "json"]),
  sha256: z.string(),
  status: z.enum(["running", "completed", "failed"]),
  bytes: z.number().int(),
  rowsEstimated: z.number().int().nullable().describe("Rows the file is expected to hold (its lines less the header)"),
  rowsDone: z.number().int().describe("Rows read so far; an interrupted import resumes after them"),
  rowsImported: z.number().int().describe("New recipients"),
  rowsRefused: z.number().int().describe("Rows refused (a required field missing, a value too long…)"),
  rowsDuplicate: z.number().int().describe("Rows whose recipient id the campaign already had"),
  problems: z.array(importProblemSchema).describe("The first problems found, with their lines"),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});

export const funnelSchema = z.object({
  recipients: z.number().int(),
  opened: z.number().int().describe("Recipients with a session.started"),
  played: z.number().int().describe("Recipients with a video.played"),
  reached25: z.number().int(),
  reached50: z.number().int(),
  reached75: z.number().int(),
  completed: z.number().int().describe("Recipients with a video.completed"),
  clicked: z.number().int().describe("Recipients with a cta.clicked"),
});

export const campaignSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  channel: channelSchema,
  name: z.string(),
  fieldMap: z.record(z.string(), z.string()),
  recipientCount: z.number().int(),
  createdAt: z.iso.datetime(),
  createdBy: z.uuid().nullable(),
});

export const campaignDetailSchema = campaignSchema.extend({
  fields: z.array(z.object({ key: z.string(), required: z.boolean(), maxLength: z.number().int().nullable() })).describe("The fields of the template the channel serves now"),
  imports: z.array(campaignImportSchema),
  funnel: funnelSchema,
});

export const reachSchema = z.object({
  opened: z.boolean(),
  furthestPercent: z.number().describe("100 when completed, else the highest percent reported (0–100)"),
  completed: z.boolean(),
  clicked: z.boolean(),
});

export const recipientSchema = z.object({
  id: z.uuid(),
  externalId: z.string(),
  email: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  url: z.string().nullable().describe("/v/{slug}/{token}; null while the channel has no share"),
  line: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  reach: reachSchema,
});

export const recipientPageSchema = z.object({ items: z.array(recipientSchema), nextCursor: z.string().nullable() });
