import type { ManifestCta, ManifestTarget } from "@/shared/templates/manifest";
import type { Chapter } from "./manifest";
import type { OutlineField } from "./template-outline";

// What differs between two templates (docs/adr/0152-template-comparison.md): their facts (kind,
// size, timing, file sizes) and their fields, chapters and CTAs matched by key or id. Pure, for
// the console's compare page (a client component) and its unit test.

/** How an item of B stands to A: only in B, only in A, in both with other values, or the same. */
export type Change = "added" | "removed" | "changed" | "same";

/** One field (by key), chapter or CTA (by id) of either template; `changed` names the properties that differ. */
export type ItemDifference<T> = { id: string; change: Change; a: T | null; b: T | null; changed: (keyof T & string)[] };

/** What the comparison reads of a template: its row's facts, its files' sizes and its outline. */
export type ComparedTemplate = {
  kind: string;
  width: number | null;
  height: number | null;
  frameRate: number | null;
  durationFrames: number | null;
  files: readonly { role: string; size: number }[];
  fields: readonly OutlineField[];
  chapters: readonly Chapter[];
  ctas: readonly ManifestCta[];
};

export const factIds = ["kind", "dimensions", "frameRate", "duration", "templateJson", "manifestJson", "overlayJson", "videoFile", "posterFile", "assetFiles", "totalBytes"] as const;
export type FactId = (typeof factIds)[number];
/** A fact of both templates: a label's worth of value each (null: the template has none), and whether they differ. */
export type FactDifference = { id: FactId; a: string | number | null; b: string | number | null; changed: boolean };

export type Counts = Record<Exclude<Change, "same">, number>;

export type TemplateComparison = {
  facts: FactDifference[];
  fields: ItemDifference<OutlineField>[];
  chapters: ItemDifference<Chapter>[];
  ctas: ItemDifference<ManifestCta>[];
  counts: { facts: number; fields: Counts; chapters: Counts; ctas: Counts };
  /** Nothing the comparison looks at differs. */
  identical: boolean;
};

const fieldProperties = ["type", "target", "default", "maxLength", "strict"] as const satisfies readonly (keyof OutlineField)[];
const chapterProperties = ["name", "startFrame", "endFrame"] as const satisfies readonly (keyof Chapter)[];
const ctaProperties = ["name", "layer"] as const satisfies readonly (keyof ManifestCta)[];

const targetKey = (target: ManifestTarget) => ("layer" in target ? `layer:${target.layer}` : "asset" in target ? `asset:${target.asset}` : `slot:${target.slot}`);

/** A property's value as compared: a target by what it names; absent (`strict` is only ever true) as null. */
function comparable(value: unknown): unknown {
  if (value && typeof value === "object") return targetKey(value as ManifestTarget);
  return value ?? null;
}

/**
 * Matches A's and B's items by id. The order is B's, with each item only A has placed after the
 * item that precedes it in A (first when none of those is in B), so a removed field shows where it was.
 */
function compareItems<T extends object>(a: readonly T[], b: readonly T[], idOf: (item: T) => string, properties: readonly (keyof T & string)[]): ItemDifference<T>[] {
  const inA = new Map(a.map((item) => [idOf(item), item]));
  const inB = new Map(b.map((item) => [idOf(item), item]));
  const rows: ItemDifference<T>[] = b.map((item) => {
    const id = idOf(item);
    const before = inA.get(id);
    if (before === undefined) return { id, change: "added", a: null, b: item, changed: [] };
    const changed = properties.filter((property) => comparable(before[property]) !== comparable(item[property]));
    return { id, change: changed.length > 0 ? "changed" : "same", a: before, b: item, changed };
  });
  let anchor = -1;
  for (const item of a) {
    const id = idOf(item);
    if (inB.has(id)) {
      anchor = rows.findIndex((row) => row.id === id);
      continue;
    }
    anchor += 1;
    rows.splice(anchor, 0, { id, change: "removed", a: item, b: null, changed: [] });
  }
  return rows;
}

function countOf(rows: readonly { change: Change }[]): Counts {
  const counts: Counts = { added: 0, removed: 0, changed: 0 };
  for (const row of rows) if (row.change !== "same") counts[row.change] += 1;
  return counts;
}

const fileFacts = ["templateJson", "manifestJson", "overlayJson", "videoFile", "posterFile", "assetFiles"] as const satisfies readonly FactId[];

function factsOf(template: ComparedTemplate): Record<FactId, string | number | null> {
  const bytes = (role: string) => {
    const files = template.files.filter((file) => file.role === role);
    return files.length > 0 ? files.reduce((sum, file) => sum + file.size, 0) : null;
  };
  const { frameRate, durationFrames } = template;
  return {
    kind: template.kind,
    dimensions: template.width !== null && template.height !== null ? `${template.width}×${template.height}` : null,
    frameRate,
    duration: frameRate && durationFrames !== null ? durationFrames / frameRate : null,
    ...(Object.fromEntries(fileFacts.map((role) => [role, bytes(role)])) as Record<(typeof fileFacts)[number], number | null>),
    totalBytes: template.files.reduce((sum, file) => sum + file.size, 0),
  };
}

/**
 * What differs from A to B: "added" is in B only, "removed" in A only, "changed" in both with
 * another value for at least one property. A file fact neither template has is left out.
 */
export function compareTemplates(a: ComparedTemplate, b: ComparedTemplate): TemplateComparison {
  const factsA = factsOf(a);
  const factsB = factsOf(b);
  const facts = factIds
    .filter((id) => factsA[id] !== null || factsB[id] !== null || !(fileFacts as readonly FactId[]).includes(id))
    .map((id) => ({ id, a: factsA[id], b: factsB[id], changed: factsA[id] !== factsB[id] }));
  const fields = compareItems(a.fields, b.fields, (field) => field.key, fieldProperties);
  const chapters = compareItems(a.chapters, b.chapters, (chapter) => chapter.id, chapterProperties);
  const ctas = compareItems(a.ctas, b.ctas, (cta) => cta.id, ctaProperties);
  const counts = { facts: facts.filter((fact) => fact.changed).length, fields: countOf(fields), chapters: countOf(chapters), ctas: countOf(ctas) };
  const identical = counts.facts === 0 && [fields, chapters, ctas].every((rows) => rows.every((row) => row.change === "same"));
  return { facts, fields, chapters, ctas, counts, identical };
}

type Listed = { id: string; name: string; version: string; status: string };

/** major.minor versions in order: "1.9" before "1.10". */
export function compareVersions(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split(".").map(Number);
  const [bMajor = 0, bMinor = 0] = b.split(".").map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/**
 * The pair the compare page opens with for `focusId` (else the newest template; the list is
 * newest first): the previous version of the same name → focus; else the Production template →
 * focus; else focus → the next version of the same name; else the newest other template → focus.
 * null when the project has no second template (or focusId is not in the list).
 */
export function defaultComparison<T extends Listed>(templates: readonly T[], focusId?: string): { a: T; b: T } | null {
  const focus = focusId === undefined ? templates[0] : templates.find((template) => template.id === focusId);
  if (!focus) return null;
  const others = templates.filter((template) => template.id !== focus.id);
  const sameName = others.filter((template) => template.name === focus.name);
  const older = sameName.filter((template) => compareVersions(template.version, focus.version) < 0).sort((x, y) => compareVersions(y.version, x.version));
  if (older[0]) return { a: older[0], b: focus };
  const production = others.find((template) => template.status === "Production");
  if (production) return { a: production, b: focus };
  const newer = sameName.filter((template) => compareVersions(template.version, focus.version) > 0).sort((x, y) => compareVersions(x.version, y.version));
  if (newer[0]) return { a: focus, b: newer[0] };
  return others[0] ? { a: others[0], b: focus } : null;
}
