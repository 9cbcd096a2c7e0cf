import { isDeepStrictEqual } from "node:util";

// What an update event records of its change: each changed field, old → new
// (docs/adr/0113-audit-entries-name-their-subject.md). Callers pass only what every member may
// read: never a secret, a token or a whole webhook URL.

/** One changed field; `from`/`to` are absent when the value is not recorded (a URL's path), null when it was unset. */
export type AuditChange = { field: string; from?: unknown; to?: unknown };

/** A JSON object's keys that differ, each as `<field>.<key>`, so a data edit reads "firstName: Ana → Max", not two whole objects. */
function objectChanges(field: string, before: unknown, after: unknown): AuditChange[] | null {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
  if (!(isObject(before) || before == null) || !(isObject(after) || after == null)) return null;
  const from = before ?? {};
  const to = after ?? {};
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  return keys
    .filter((key) => !isDeepStrictEqual(from[key], to[key]))
    .map((key) => ({ field: `${field}.${key}`, from: from[key] ?? null, to: to[key] ?? null }));
}

/**
 * The fields of `after` that differ from `before`, in `fields` order. Fields named in `objects`
 * hold JSON objects and are compared key by key.
 */
export function fieldChanges<T extends Record<string, unknown>>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
  objects: readonly (keyof T & string)[] = [],
): AuditChange[] {
  return fields.flatMap((field): AuditChange[] => {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (isDeepStrictEqual(from, to)) return [];
    const keyed = objects.includes(field) ? objectChanges(field, from, to) : null;
    return keyed ?? [{ field, from, to }];
  });
}
