import { createHash } from "node:crypto";
import { checkPersonalizationData, templateRuleFields, type DataProblemCode } from "@/shared/templates/data-rules";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";
import type { ImportProblem } from "./contract";

// How the columns of an uploaded file map to the template's fields, and what each row must
// satisfy (docs/adr/0094-campaigns.md). Pure: the import (import-recipients.ts) feeds it rows.

/** A field of the served template as a campaign row must fill it. */
export type CampaignField = { key: string; type: TemplateField["type"]; required: boolean; maxLength: number | null; strict: boolean };

/** Column names that carry the recipient's own id, normalized (normalizeColumnName), in order of preference. */
const idColumnNames = ["id", "recipientid", "externalid"];
/** Column names that carry the recipient's email, normalized: "Email", "E-mail", "Email Address". */
const emailColumnNames = ["email", "emailaddress"];
/** What a mapping may name instead of a field key. */
export const mappingTargets = { id: "$id", email: "$email", ignore: "$ignore" } as const;
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

/** Where a column's values go. */
export type ColumnTarget = { kind: "field"; key: string } | { kind: "id" } | { kind: "email" } | { kind: "ignored" };
/** How the target was found: the mapping named it, the column's name matched, or nothing matched. */
export type ColumnMatch = "mapping" | "auto" | "none";
export type PlannedColumn = { name: string; target: ColumnTarget; matched: ColumnMatch };

/** What each column of a file is: the recipient id, the email, a field (by key), or ignored. */
export type ColumnPlan = {
  idIndex: number | null;
  emailIndex: number | null;
  fieldColumns: { index: number; field: CampaignField }[];
  width: number;
  /** Each column as the dry run reports it, in header order. */
  columns: PlannedColumn[];
  /** Warnings about the header itself (unknown and duplicate columns), line 1 (or null for a JSON batch). */
  warnings: ImportProblem[];
  /** The template's image files an image value may name; null: not known, names are taken on trust. */
  imageFiles: ReadonlySet<string> | null;
};

/** "First Name" → "firstname", "E-mail" → "email": how a column finds its field without a mapping. */
export function normalizeColumnName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * A column's claim on a target. `rank` orders the claims on one target: a mapping before an
 * exact name before a normalized one (and `id` before `recipient_id` before `external_id`); the
 * header order breaks ties.
 */
type Claim = { index: number; target: ColumnTarget; matched: ColumnMatch; rank: number };

const slotOf = (target: ColumnTarget) => (target.kind === "field" ? `field:${target.key}` : target.kind);

/**
 * The plan for a header. Each column goes where `mapping` (column name → field key, `$id`,
 * `$email` or `$ignore`) sends it; a column it does not name is matched by name: a field of that
 * key, exactly or normalized ("First Name" fills firstName), else the email or the id by their
 * usual names; else it is ignored with an `unknown_column` warning (a column mapped to `$ignore`
 * is ignored silently). When several columns claim one target, the best claim takes it and the
 * others are `duplicate_column` warnings.
 */
export function planColumns(
  header: string[],
  fields: CampaignField[],
  mapping: Record<string, string>,
  headerLine: number | null,
  imageFiles: ReadonlySet<string> | null = null,
): ColumnPlan {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const byNormalKey = new Map<string, CampaignField>();
  for (const field of fields) if (!byNormalKey.has(normalizeColumnName(field.key))) byNormalKey.set(normalizeColumnName(field.key), field);
  const mapped = new Map(Object.entries(mapping).map(([column, target]) => [column.trim(), target]));
  const keys = fields.map((f) => f.key).join(", ") || "none";
  // Named in problems (stored as JSON): a NUL, which PostgreSQL cannot store, is shown as U+FFFD.
  const names = header.map((raw) => raw.trim().replaceAll("\u0000", "\uFFFD"));
  const warnings: { index: number; problem: ImportProblem }[] = [];
  const warn = (index: number, code: ImportProblem["code"], message: string) =>
    warnings.push({ index, problem: { line: headerLine, column: names[index]!, code, message, severity: "warning" } });

  const claims: Claim[] = names.map((column, index) => {
    const explicit = mapped.get(column);
    if (explicit !== undefined) {
      if (explicit === mappingTargets.ignore) return { index, target: { kind: "ignored" }, matched: "mapping", rank: 0 };
      if (explicit === mappingTargets.id) return { index, target: { kind: "id" }, matched: "mapping", rank: 0 };
      if (explicit === mappingTargets.email) return { index, target: { kind: "email" }, matched: "mapping", rank: 0 };
      if (byKey.has(explicit)) return { index, target: { kind: "field", key: explicit }, matched: "mapping", rank: 0 };
      warn(index, "unknown_column", `column "${column}" is mapped to "${explicit}", which the template does not have (its fields: ${keys}); its values are ignored`);
      return { index, target: { kind: "ignored" }, matched: "mapping", rank: 0 };
    }
    const normal = normalizeColumnName(column);
    if (byKey.has(column)) return { index, target: { kind: "field", key: column }, matched: "auto", rank: 1 };
    const field = byNormalKey.get(normal);
    if (field) return { index, target: { kind: "field", key: field.key }, matched: "auto", rank: 2 };
    if (emailColumnNames.includes(normal)) return { index, target: { kind: "email" }, matched: "auto", rank: 1 };
    const idRank = idColumnNames.indexOf(normal);
    if (idRank >= 0) return { index, target: { kind: "id" }, matched: "auto", rank: 1 + idRank };
    warn(index, "unknown_column", `column "${column}" matches no field of the template, which has the fields ${keys}; its values are ignored`);
    return { index, target: { kind: "ignored" }, matched: "none", rank: 0 };
  });

  // The best claim on each target takes it.
  const winners = new Map<string, Claim>();
  for (const claim of claims) {
    if (claim.target.kind === "ignored") continue;
    const slot = slotOf(claim.target);
    const best = winners.get(slot);
    if (!best || claim.rank < best.rank) winners.set(slot, claim);
  }
  const plan: ColumnPlan = { idIndex: null, emailIndex: null, fieldColumns: [], width: header.length, columns: [], warnings: [], imageFiles };
  for (const claim of claims) {
    const column = names[claim.index]!;
    let target = claim.target;
    if (target.kind !== "ignored") {
      const winner = winners.get(slotOf(target))!;
      if (winner !== claim) {
        const what = target.kind === "field" ? `fills field "${target.key}" again` : target.kind === "id" ? "is another recipient id" : "is another email";
        warn(claim.index, "duplicate_column", `column "${column}" ${what}; only column "${names[winner.index]}" is used`);
        target = { kind: "ignored" };
      }
    }
    if (target.kind === "field") plan.fieldColumns.push({ index: claim.index, field: byKey.get(target.key)! });
    else if (target.kind === "id") plan.idIndex = claim.index;
    else if (target.kind === "email") plan.emailIndex = claim.index;
    plan.columns.push({ name: column, target, matched: claim.matched });
  }
  // A template field named like the email (a column "email" filling field "email") is the email too, unless a column is the email itself.
  if (plan.emailIndex === null) {
    const emailField = plan.fieldColumns.find(({ index }) => emailColumnNames.includes(normalizeColumnName(names[index]!)));
    if (emailField) plan.emailIndex = emailField.index;
  }
  plan.warnings = warnings.sort((a, b) => a.index - b.index).map(({ problem }) => problem);
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
  return { ok: true, row: { externalId: recipientKey(ownId, email, data), email, data }, warnings };
}

/**
 * Who a row is: its own id; else its email, trimmed and lowercased (a list exported from a CRM
 * without ids is still keyed by person); else, with neither, a digest of its data, so the same
 * row in another file is the same recipient.
 */
export function recipientKey(ownId: string, email: string | null, data: Record<string, string>): string {
  if (ownId) return ownId;
  if (email) return email.toLowerCase();
  return dataDigest(data, email);
}

/** A row with neither id nor email is known by its content: the same data is the same recipient. */
export function dataDigest(data: Record<string, string>, email: string | null): string {
  const canonical = JSON.stringify([email, Object.keys(data).sort().map((key) => [key, data[key]])]);
  return `sha256:${createHash("sha256").update(canonical).digest("base64url")}`;
}
