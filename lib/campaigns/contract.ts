import { z } from "zod";
import { channelSchema } from "@/lib/shares/contract";

// Campaign inputs and outputs: the handlers validate with these, the OpenAPI document describes them.

/** A column name of an uploaded file, and a template field key it may be renamed to. */
const columnName = z.string().trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" });
const fieldKeyPattern = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Where a column goes: a template field key, or the recipient's id, its email, or nowhere. */
const columnTarget = z
  .string()
  .refine((target) => ["$id", "$email", "$ignore"].includes(target) || fieldKeyPattern.test(target), {
    error: "must be a template field key (letters, digits, underscores), $id, $email or $ignore",
  })
  .describe("A template field key, $id, $email or $ignore");

/** CSV column → target. */
export const fieldMapSchema = z
  .record(columnName, columnTarget, { error: "must be a JSON object: column name → template field key, $id, $email or $ignore" })
  .refine((map) => Object.keys(map).length <= 200, { error: "must map at most 200 columns" });

export const createCampaignBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(120, { error: "must be at most 120 characters" }),
  channel: channelSchema,
  fieldMap: fieldMapSchema
    .optional()
    .describe(
      "CSV column → template field key, $id (the recipient's id), $email or $ignore; a column not named here fills the field whose key matches its name, letters and digits compared without case (\"First Name\" fills firstName)",
    ),
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

export const importModes = ["upsert", "replace"] as const;
export type ImportMode = (typeof importModes)[number];

/** A JSON object in a query parameter: parsed, then checked by `schema` (422 naming the parameter, or the column). */
const jsonParameter = <T extends z.ZodType>(schema: T, what: string) =>
  z
    .string()
    .max(32_768, { error: "must be at most 32,768 characters" })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: `must be ${what} in JSON; this is not valid JSON` });
        return z.NEVER;
      }
    })
    .pipe(schema);

export const importRecipientsQuery = z.strictObject({
  dryRun: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("false")
    .transform((value) => value === "true")
    .describe("true: read and check the whole body, write nothing, answer what the import would do"),
  mode: z
    .enum(importModes, { error: 'must be "upsert" or "replace"' })
    .default("upsert")
    .describe("upsert: recipients the campaign knows (by id, else email) are updated, others added; replace: as upsert, then the recipients the file does not name are removed (their URLs stop working)"),
  fieldMap: jsonParameter(fieldMapSchema, "an object of column name → template field key, $id, $email or $ignore")
    .optional()
    .describe("JSON: column name → template field key, $id, $email or $ignore, over the campaign's fieldMap; an import (not a dry run) keeps it as the campaign's"),
});

export type ImportRecipientsQuery = z.infer<typeof importRecipientsQuery>;

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
  mode: z.enum(importModes),
  fieldMap: z.record(z.string(), z.string()).describe("The explicit column mapping it ran with (the request's over the campaign's)"),
  rowsImported: z.number().int().describe("New recipients"),
  rowsUpdated: z.number().int().describe("Recipients the campaign had whose data or email the file changed (their URLs stay)"),
  rowsUnchanged: z.number().int().describe("Recipients the campaign had, named again with the same data and email"),
  rowsRemoved: z.number().int().describe("Recipients a replacing import removed because the file did not name them"),
  rowsRefused: z.number().int().describe("Rows refused (a required field missing, a value too long…)"),
  rowsDuplicate: z.number().int().describe("Rows naming a recipient an earlier row of the same file named (the first row counts)"),
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
  fields: z.array(z.object({ key: z.string(), required: z.boolean(), maxLength: z.number().int().nullable() })).describe("The fields of the template the channel serves now, in template order"),
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

export const recipientPageSchema = z.object({
  items: z.array(recipientSchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page"),
});

const fieldSchema = z.object({ key: z.string(), required: z.boolean(), maxLength: z.number().int().nullable() });

export const columnTargetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("field"), key: z.string() }),
  z.object({ kind: z.literal("id") }),
  z.object({ kind: z.literal("email") }),
  z.object({ kind: z.literal("ignored") }),
]);

/** What a dry run answers: the columns' targets, a sample of the rows, and the counts the import would have. */
export const importDryRunSchema = z.object({
  dryRun: z.literal(true),
  mode: z.enum(importModes),
  columns: z
    .array(z.object({ name: z.string(), target: columnTargetSchema, matched: z.enum(["mapping", "auto", "none"]).describe("mapping: the fieldMap named it; auto: its name matched; none: nothing did (ignored)") }))
    .describe("Each column of the header, in order"),
  fields: z.array(fieldSchema).describe("The fields of the template the channel serves now"),
  sample: z
    .array(z.object({ line: z.number().int().nullable(), externalId: z.string(), email: z.string().nullable(), data: z.record(z.string(), z.string()) }))
    .describe("The first 10 rows that would be accepted, as they would be stored"),
  rows: z.number().int().describe("Rows read (the header and blank lines not counted)"),
  wouldAdd: z.number().int(),
  wouldUpdate: z.number().int().describe("Recipients the campaign has whose data or email would change"),
  wouldLeaveUnchanged: z.number().int().describe("Recipients the campaign has, named with the same data and email"),
  wouldRemove: z.number().int().describe("replace: the campaign's recipients the file does not name; upsert: 0"),
  wouldRefuse: z.number().int(),
  duplicates: z.number().int().describe("Rows naming a recipient an earlier row of the file named"),
  problems: z.array(importProblemSchema).describe("The first 100 problems, as an import lists them"),
});

/** POST …/recipients' 200: a dry run's report, or an import (replayed or resumed); `dryRun` tells them apart. */
export const importOrDryRunSchema = z.union([importDryRunSchema, campaignImportSchema]);

export const recipientEditBody = z
  .strictObject({
    email: z.string().max(320, { error: "must be at most 320 characters" }).nullable().optional().describe("null or empty: none"),
    data: z
      .record(z.string().max(200), z.string().nullable())
      .optional()
      .describe("Field key → new value; the fields not named keep theirs; null or empty removes a value (refused for a required field)"),
  })
  .refine((body) => body.email !== undefined || body.data !== undefined, { error: "must change email or data" });

export type RecipientEditInput = z.infer<typeof recipientEditBody>;

export const editedRecipientSchema = recipientSchema.extend({
  warnings: z.array(importProblemSchema).describe("What the template adapts (a value the player shortens), as an import reports it"),
});
