import type { BindingManifest, TemplateField } from "./manifest";

// What a template makes of personalization data, checked before anything plays it: the one set
// of rules and the one wording that the live preview (applyBindings), the share form, the shares
// API and campaign imports all report. Browser-safe: no Node APIs, no ajv.

/** A field as the data rules see it. `strict`: the manifest refuses data that breaks the field's rule instead of adapting it. */
export type DataRuleField = { key: string; type: "text" | "image"; maxLength: number | null; strict: boolean };

export type DataProblemCode = "unknown_key" | "not_string" | "too_long" | "not_image";

/**
 * One value the template would not show as given. A strict field's problem is a refusal (the API
 * answers 422, a campaign row is refused); any other is a warning: the player adapts the value
 * (shortens it, or falls back to the default) and says so in the same words.
 */
export type DataProblem = { key: string; code: DataProblemCode; strict: boolean; message: string };

const imageDataUrl = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/]*={0,2})$/;

const magicBytes: Record<string, (bytes: string) => boolean> = {
  png: (b) => b.startsWith("\x89PNG\r\n\x1a\n"),
  jpeg: (b) => b.startsWith("\xff\xd8\xff"),
  webp: (b) => b.startsWith("RIFF") && b.slice(8, 12) === "WEBP",
};

/** A base64 data URL of a PNG, JPEG or WebP image whose first bytes match its declared type. */
export function isImageDataUrl(value: string): boolean {
  const match = imageDataUrl.exec(value);
  if (!match) return false;
  const [, type, payload] = match as unknown as [string, string, string];
  if (payload.length % 4 !== 0 || payload.length < 16) return false;
  let head: string;
  try {
    head = atob(payload.slice(0, 16));
  } catch {
    return false;
  }
  return magicBytes[type]?.(head) ?? false;
}

/**
 * A data value as the player takes it: a string as it is, a number or boolean as its text
 * (personalization data is JSON, and `{"seats": 3}` shows "3"); anything else is no value.
 */
export function playedValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** The data as the player binds it: the values playedValue keeps, as strings. */
export function playedData(data: Readonly<Record<string, unknown>> | null | undefined): Record<string, string> {
  const played: Record<string, string> = {};
  for (const [key, raw] of Object.entries(data ?? {})) {
    const value = playedValue(raw);
    if (value !== undefined) played[key] = value;
  }
  return played;
}

/**
 * A share's or session's data as the player will receive it (bindingData): numbers and booleans
 * become their text; anything else stays, for checkPersonalizationData to warn that it is no string.
 */
export function asPlayedValues(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, playedValue(value) ?? value]));
}

/** Text as the player sets it: line breaks become "\r" (After Effects' line separator). */
export const asLottieText = (text: string) => text.replace(/\r\n|\n/g, "\r");

/** Length in code points, as maxLength counts it (an emoji is one character). */
const codePoints = (text: string) => [...text].length;

/** The words of every problem, in one place. */
const describe: Record<DataProblemCode, (field: { key: string; maxLength?: number | null }, strict: boolean, length?: number) => string> = {
  unknown_key: ({ key }) => `unknown key "${key}"`,
  not_string: ({ key }, strict) => (strict ? `"${key}" must be a string` : `"${key}" is not a string; the default is used`),
  too_long: ({ key, maxLength }, strict, length) =>
    strict ? `"${key}" is ${length} characters; the template allows at most ${maxLength}` : `"${key}" was shortened to ${maxLength} characters`,
  not_image: ({ key }, strict) =>
    strict
      ? `"${key}" must be a data:image/png, jpeg or webp base64 URL or one of the template's image files`
      : `"${key}" is neither a data:image/png, jpeg or webp base64 URL nor one of the template's image files; the default image is used`,
};

/**
 * Every problem of `data` for a template with these fields, in the data's key order then the
 * fields' order. `imageFiles`: the file names an image value may name (the template's image
 * files); null when they are not known, and a file name is then taken on trust.
 */
export function checkPersonalizationData(
  fields: readonly DataRuleField[],
  data: Readonly<Record<string, unknown>>,
  imageFiles: ReadonlySet<string> | null,
): DataProblem[] {
  const problems: DataProblem[] = [];
  const add = (field: DataRuleField | { key: string }, code: DataProblemCode, strict: boolean, length?: number) =>
    problems.push({ key: field.key, code, strict, message: describe[code](field, strict, length) });
  const keys = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(data)) if (!keys.has(key)) add({ key }, "unknown_key", false);
  for (const field of fields) {
    if (!Object.hasOwn(data, field.key)) continue;
    const value = data[field.key];
    if (typeof value !== "string") {
      add(field, "not_string", field.strict);
    } else if (field.type === "text") {
      const length = codePoints(asLottieText(value));
      if (field.maxLength !== null && length > field.maxLength) add(field, "too_long", field.strict, length);
    } else if (!isImageDataUrl(value) && imageFiles !== null && !imageFiles.has(value)) {
      add(field, "not_image", field.strict);
    }
  }
  return problems;
}

/** The fields' data rules: a text field's maxLength, and whether the manifest marks it strict. */
export function dataRuleFields(
  fields: readonly { key: string; type: "text" | "image"; maxLength?: number | null | undefined; strict?: boolean | undefined }[],
): DataRuleField[] {
  return fields.map((field) => ({
    key: field.key,
    type: field.type,
    maxLength: field.type === "text" ? (field.maxLength ?? null) : null,
    strict: field.strict === true,
  }));
}

/** A stored template's fields with the manifest's strict flags (read from the manifest: fields stored before the flag existed have none). */
export function templateRuleFields(stored: readonly TemplateField[], manifest: BindingManifest | null): DataRuleField[] {
  const strict = new Set((manifest?.fields ?? []).filter((field) => field.strict === true).map((field) => field.key));
  return dataRuleFields(stored.map((field) => ({ ...field, strict: strict.has(field.key) })));
}
