import type { FieldProblem } from "@/lib/console/api-client";

// The live preview form's values → the data the player binds (SET_DATA) and the PNG preview
// renders. Browser-safe: the field shape is the server's TemplateOutline field, by type only.

export type PreviewField = { key: string; type: "text" | "image"; default: string | null; maxLength: number | null };

/**
 * What to bind: what the user typed, else the field's default, so that emptying an input shows
 * the default again. A field with neither is left out: the template's own text or image stays.
 */
export function previewData(fields: readonly PreviewField[], values: Readonly<Record<string, string>>): Record<string, string> {
  const data: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.key] || field.default;
    if (value) data[field.key] = value;
  }
  return data;
}

/**
 * SET_DATA adds to the player's data key by key and cannot take a key away: when a key bound
 * before is gone, the player must start again from the new data.
 */
export function needsRestart(sent: Readonly<Record<string, string>>, next: Readonly<Record<string, string>>): boolean {
  return Object.keys(sent).some((key) => !Object.hasOwn(next, key));
}

/** The preview API's errors by field key (`data.City: must be a string` → City); the rest are the form's. */
export function previewProblemsByKey(problems: readonly FieldProblem[]): { byKey: Record<string, string>; other: string[] } {
  const byKey: Record<string, string> = {};
  const other: string[] = [];
  for (const { path, message } of problems) {
    const match = /^data\.(.+)$/.exec(path);
    if (match) byKey[match[1]!] = message;
    else other.push(path ? `${path} ${message}` : message);
  }
  return { byKey, other };
}
