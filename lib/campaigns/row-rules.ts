import { createHash } from "node:crypto";
import { checkPersonalizationData, templateRuleFields, type DataProblemCode } from "@/shared/templates/data-rules";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";
import type { ImportProblem } from "./contract";

// How the columns of an uploaded file map to the template's fields, and what each row must
// satisfy (docs/adr/0094-campaigns.md). Pure: the import (import-recipients.ts) feeds it rows.

/** A field of the served template as a campaign row must fill it. */
export type CampaignField = { key: string; type: TemplateField["type"]; required: boolean; maxLength: number | null; strict: boolean };

/** Column names (case-insensitive) that carry the recipient's own id, in order of preference. */
const idColumnNames = ["id", "recipient_id", "external_id"];
const emailColumnName = "email";
/** An id longer than this is no id a CRM hands out; such a row is refused. */
export const maxExternalIdLength = 200;
/** Any one value: the manifest's own longest maxLength is 2,000; image data URLs get more room. */
export const maxValueCharacters = 16_384;

/**
 * The fields a row fills. A text field the manifest gives no default (and that the share's own
 * personalization data does not fill) is required: without a value the video would show the
 * template's placeholder. A template bound by `{{key}}` layers has no defaults at all.
 */
export function campaignFields(stored: TemplateField[], manifest: BindingManifest | null, shareData: Record<string, unknown> | null): CampaignField[] {
  const manifestDefaults = new Map((manifest?.fields ?? []).map((field) => [field.key, field.default]));
  const strict = new Set(templateRuleFields(stored, manifest).filter((field) => field.strict).map((field) => field.key));
  return stored.map((field) => {
    const shareValue = shareData?.[field.key];
    const sharedFills = typeof shareValue === "string" ? shareValue !== "" : typeof shareValue === "number" || typeof shareValue === "boolean";
    return {
      key: field.key,
      type: field.type,
      required: field.type === "text" && manifestDefaults.get(field.key) === undefined && !sharedFills,
      maxLength: field.maxLength,
      strict: strict.has(field.key),
    };
  });
}

/** What each column of a file is: the recipient id, the email, a field (by key), or unknown (ignored). */
export type ColumnPlan = {
  idIndex: number | null;
  emailIndex: number | null;
  fieldColumns: { index: number; field: CampaignField }[];
  width: number;
  /** Warnings about the header itself (unknown and duplicate columns), line 1 (or null for a JSON batch). */
  warnings: ImportProblem[];
  /** The template's image files an image value may name; null: not known, names are taken on trust. */
  imageFiles: ReadonlySet<string> | null;
};

export function planColumns(
  header: string[],
  fields: CampaignField[],
  fieldMap: Record<string, string>,
  headerLine: number | null,
  imageFiles: ReadonlySet<string> | null = null,
): ColumnPlan {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const mapped = new Map(Object.entries(fieldMap).map(([column, key]) => [column.trim(), key]));
  const plan: ColumnPlan = { idIndex: null, emailIndex: null, fieldColumns: [], width: header.length, warnings: [], imageFiles };
  const taken = new Set<string>();
  let idRank = Infinity;
  header.forEach((raw, index) => {
    // Named in problems (stored as JSON): a NUL, which PostgreSQL cannot store, is shown as U+FFFD.
    const column = raw.trim().replaceAll("\u0000", "\uFFFD");
    const lower = column.toLowerCase();
    const key = mapped.get(column) ?? column;
    const field = byKey.get(key);
    if (field) {
      if (taken.has(key)) {
        plan.warnings.push({ line: headerLine, column, code: "duplicate_column", message: `column "${column}" fills field "${key}" again; only the first such column is used`, severity: "warning" });
      } else {
        taken.add(key);
        plan.fieldColumns.push({ index, field });
      }
      if (lower === emailColumnName && plan.emailIndex === null) plan.emailIndex = index;
      return;
    }
    const rank = mapped.has(column) ? -1 : idColumnNames.indexOf(lower);
    if (rank >= 0 && rank < idRank) {
      idRank = rank;
      plan.idIndex = index;
    } else if (lower === emailColumnName && plan.emailIndex === null) {
      plan.emailIndex = index;
    } else {
      const why = mapped.has(column) ? `is mapped to "${key}", which` : "matches no field of the template, which";
      const keys = fields.map((f) => f.key).join(", ") || "none";
      plan.warnings.push({ line: headerLine, column, code: "unknown_column", message: `column "${column}" ${why} has the fields ${keys}; its values are ignored`, severity: "warning" });
    }
  });
  return plan;
}

export type AcceptedRow = { externalId: string; email: string | null; data: Record<string, string> };
/** An accepted row may carry warnings: values the template adapts (data-rules.ts), with the row's line. */
export type RowVerdict = { ok: true; row: AcceptedRow; warnings: ImportProblem[] } | { ok: false; problems: ImportProblem[] };

const problemCodes: Record<DataProblemCode, ImportProblem["code"]> = {
  unknown_key: "unknown_column",
  not_string: "malformed",
  too_long: "too_long",
  not_image: "not_image",
};

/**
 * One row's values (in header order) checked against the plan; refused rows say every reason,
 * with their line. Each value is checked by the template's data rules (data-rules.ts), worded as
 * its live preview and the share form word them: a strict field's problem refuses the row,
 * another is a warning on the accepted row (the player shortens the text, or shows the default).
 */
export function checkRow(values: (string | null)[], plan: ColumnPlan, line: number | null): RowVerdict {
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const refuse = (code: ImportProblem["code"], column: string | undefined, message: string) =>
    problems.push({ line, ...(column === undefined ? {} : { column }), code, message, severity: "error" });
  if (values.length !== plan.width) {
    refuse("field_count", undefined, `has ${values.length} values; the header has ${plan.width} columns`);
    return { ok: false, problems };
  }
  const data: Record<string, string> = {};
  for (const { index, field } of plan.fieldColumns) {
    const value = values[index] ?? "";
    if (value === "") {
      if (field.required) refuse("missing_field", field.key, `"${field.key}" is required (the template has no default for it)`);
      continue;
    }
    if (value.includes("\u0000")) refuse("malformed", field.key, `"${field.key}" contains a NUL character`);
    else if (value.length > maxValueCharacters) refuse("too_long", field.key, `"${field.key}" is longer than ${maxValueCharacters} characters`);
    else {
      const found = checkPersonalizationData([field], { [field.key]: value }, plan.imageFiles);
      for (const problem of found) {
        if (problem.strict) refuse(problemCodes[problem.code], field.key, problem.message);
        else warnings.push({ line, column: field.key, code: problemCodes[problem.code], message: problem.message, severity: "warning" });
      }
      if (!found.some((problem) => problem.strict)) data[field.key] = value;
    }
  }
  const email = plan.emailIndex === null ? null : (values[plan.emailIndex] ?? "").trim() || null;
  if (email !== null && (email.length > 320 || email.includes("\u0000"))) refuse("malformed", "email", "email is longer than 320 characters or contains a NUL");
  const ownId = plan.idIndex === null ? "" : (values[plan.idIndex] ?? "").trim();
  if (ownId.length > maxExternalIdLength || ownId.includes("\u0000")) refuse("unusable_id", "id", `the recipient id is longer than ${maxExternalIdLength} characters or contains a NUL`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, row: { externalId: ownId || dataDigest(data, email), email, data }, warnings };
}

/**
 * A row without an id of its own is known by its content: the same data (and email) is the same
 * recipient, so importing the file again, or another file with that row, adds nobody.
 */
export function dataDigest(data: Record<string, string>, email: string | null): string {
  const canonical = JSON.stringify([email, Object.keys(data).sort().map((key) => [key, data[key]])]);
  return `sha256:${createHash("sha256").update(canonical).digest("base64url")}`;
}
