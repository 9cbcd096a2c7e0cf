"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useId, useMemo, useTransition } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { inputClass } from "@/components/console/field";
import { EmptyState, ErrorState } from "@/components/console/states";
import { formatDateTime } from "@/lib/console/format";
import { formatBytes } from "@/lib/console/templates/format";
import { templateFileList, type TemplateJson } from "@/lib/console/templates/template-rules";
import { compareTemplates, type Counts, type FactDifference, type FactId, type ItemDifference, type TemplateComparison } from "@/lib/templates/compare-templates";
import type { Chapter } from "@/lib/templates/manifest";
import type { OutlineField, TemplateOutline } from "@/lib/templates/template-outline";
import type { ManifestCta } from "@/shared/templates/manifest";
import { ComparePreview } from "./compare-preview";
import { CompareTable, NotIn, Properties, type CompareRow } from "./compare-table";
import { kindLabels } from "./kind-labels";
import { fileRoleLabels, targetLabel } from "./outline-labels";
import { TemplateStatusBadge } from "./template-status-badge";
import { Section } from "./section";

/** A side of the comparison: the id asked for (null: none yet), and the template with its outline when the project has it. */
export type CompareSide = { id: string | null; loaded: { template: TemplateJson; outline: TemplateOutline } | null };
type Loaded = NonNullable<CompareSide["loaded"]>;
type Letter = "A" | "B";

type Props = { projectId: string; templates: TemplateJson[]; a: CompareSide; b: CompareSide };

const sideName = (letter: Letter, { template }: Loaded) => `${letter} · ${template.name} ${template.version}`;

/** Two templates of the project side by side: their facts, what B adds, removes or changes from A, and both playing from one form. */
export function TemplateCompare({ projectId, templates, a, b }: Props) {
  const base = `/projects/${projectId}/templates`;
  const pair = a.loaded && b.loaded ? { a: a.loaded, b: b.loaded } : null;

  return (
    <article className="space-y-8" aria-labelledby="compare-heading">
      <div className="space-y-4">
        <Link href={base} className="text-sm text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
          ← All templates
        </Link>
        <div>
          <h1 id="compare-heading" className="text-2xl font-semibold">
            Compare versions
          </h1>
          <p className="mt-1 text-sm text-slate-600">What B adds, removes or changes from A, and both playing with the same data. This page&apos;s address opens the same comparison.</p>
        </div>
        {templates.length < 2 ? (
          <EmptyState title="Nothing to compare yet">A comparison needs two templates; upload a new version of a template to compare it with the one before.</EmptyState>
        ) : (
          <Pickers templates={templates} a={a.id} b={b.id} />
        )}
      </div>

      {(["A", "B"] as const).map((letter) => {
        const side = letter === "A" ? a : b;
        return side.id !== null && !side.loaded ? (
          <ErrorState
            key={letter}
            title={`Template ${letter} was not found`}
            message={`This project has no template “${side.id.slice(0, 80)}”: it may have been deleted, or the address names another project's template. Choose template ${letter} above.`}
          />
        ) : null;
      })}

      {pair ? <Comparison projectId={projectId} a={pair.a} b={pair.b} /> : null}
    </article>
  );
}

function Pickers({ templates, a, b }: { templates: TemplateJson[]; a: string | null; b: string | null }) {
  const router = useRouter();
  const pathname = usePathname();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const known = (value: string | null) => (value && templates.some((template) => template.id === value) ? value : "");
  const go = (next: { a: string | null; b: string | null }) => {
    const query = new URLSearchParams();
    if (next.a) query.set("a", next.a);
    if (next.b) query.set("b", next.b);
    startTransition(() => router.push(`${pathname}?${query}`, { scroll: false }));
  };

  return (
    <form className="flex flex-wrap items-end gap-3" aria-label="Templates to compare" onSubmit={(event) => event.preventDefault()}>
      {(["a", "b"] as const).map((side) => (
        <div key={side} className="min-w-0 flex-1 basis-64 space-y-1">
          <label htmlFor={`${id}-${side}`} className="block text-sm font-medium text-slate-800">
            Template {side.toUpperCase()}
          </label>
          <select
            id={`${id}-${side}`}
            className={`${inputClass} pr-8`}
            value={known(side === "a" ? a : b)}
            onChange={(event) => go(side === "a" ? { a: event.target.value, b } : { a, b: event.target.value })}
          >
            <option value="" disabled>
              Choose a template
            </option>
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {template.name} {template.version} ({template.status})
              </option>
            ))}
          </select>
        </div>
      ))}
      <Button onClick={() => go({ a: b, b: a })} disabled={!a && !b}>
        Swap A and B
      </Button>
      <p role="status" className="basis-full text-xs text-slate-500">
        {pending ? "Loading the comparison…" : ""}
      </p>
    </form>
  );
}

function comparedOf({ template, outline }: Loaded) {
  return { kind: template.kind, width: template.width, height: template.height, files: templateFileList(template), ...outline };
}

function Comparison({ projectId, a, b }: { projectId: string; a: Loaded; b: Loaded }) {
  const comparison = useMemo(() => compareTemplates(comparedOf(a), comparedOf(b)), [a, b]);
  const sides = { a: sideName("A", a), b: sideName("B", b) };
  const base = `/projects/${projectId}/templates`;

  return (
    <>
      <div className="space-y-4">
        <p className="rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-800 ring-1 ring-slate-200">{summaryOf(comparison, a.template.id === b.template.id)}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {([["A", a] as const, ["B", b] as const]).map(([letter, side]) => (
            <SideCard key={letter} letter={letter} side={side} href={`${base}/${side.template.id}`} />
          ))}
        </div>
      </div>

      <Section title="Size and files" id="facts">
        <CompareTable caption="Size and files" itemLabel="Property" sides={sides} rows={comparison.facts.map((fact) => factRow(fact, a, b))} />
      </Section>

      <ItemsSection
        title="Fields"
        id="fields"
        note="Matched by key. Each template's binding manifest (or its {{key}} text layers)."
        itemLabel="Key"
        none="Neither template has fields."
        rows={comparison.fields}
        sides={sides}
        propertyLabel={(property) => fieldPropertyLabels[property]}
        itemsOf={(field, changed) => fieldItems(field, changed)}
      />
      <ItemsSection
        title="Chapters"
        id="chapters"
        note="Matched by id. From the manifest, else one per Lottie marker."
        itemLabel="Id"
        none="Neither template has chapters."
        rows={comparison.chapters}
        sides={sides}
        propertyLabel={(property) => chapterPropertyLabels[property]}
        itemsOf={(chapter, changed, side) => chapterItems(chapter, changed, (side === "A" ? a : b).outline.frameRate)}
      />
      <ItemsSection
        title="Calls to action"
        id="ctas"
        note="Matched by id: layers that open the share's CTA link when clicked."
        itemLabel="Id"
        none="Neither template has calls to action."
        rows={comparison.ctas}
        sides={sides}
        propertyLabel={(property) => property}
        itemsOf={(cta, changed) => ctaItems(cta, changed)}
      />

      <Section
        title="Live preview with the same data"
        id="preview"
        note="One form for both templates: each plays the values typed here; a field left empty shows each template's own default."
      >
        <ComparePreview
          projectId={projectId}
          rows={comparison.fields}
          sides={[
            { letter: "A", template: a.template, fields: a.outline.fields },
            { letter: "B", template: b.template, fields: b.outline.fields },
          ]}
        />
      </Section>
    </>
  );
}

function SideCard({ letter, side: { template }, href }: { letter: Letter; side: Loaded; href: string }) {
  return (
    <section aria-label={`Template ${letter}`} className="min-w-0 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Template {letter}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <Link href={href} className="min-w-0 break-words text-lg font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
          {template.name}
        </Link>
        <Badge>v{template.version}</Badge>
        <TemplateStatusBadge status={template.status} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        Uploaded <time dateTime={template.createdAt}>{formatDateTime(template.createdAt)}</time>
        {template.deployedAt ? (
          <>
            {" "}
            · deployed <time dateTime={template.deployedAt}>{formatDateTime(template.deployedAt)}</time>
          </>
        ) : null}
      </p>
    </section>
  );
}

const countWords = (what: string, counts: Counts) => {
  const parts = (["added", "removed", "changed"] as const).flatMap((change) => (counts[change] > 0 ? [`${counts[change]} ${change}`] : []));
  return parts.length > 0 ? [`${what}: ${parts.join(", ")}`] : [];
};

function summaryOf(comparison: TemplateComparison, sameTemplate: boolean): string {
  if (sameTemplate) return "A and B are the same template; choose another one above to see differences.";
  if (comparison.identical) return "No difference: the two templates have the same kind, size, timing, file sizes, fields, chapters and calls to action.";
  const { facts, fields, chapters, ctas } = comparison.counts;
  const parts = [
    ...(facts > 0 ? [`${facts} ${facts === 1 ? "property" : "properties"} of size and files changed`] : []),
    ...countWords("fields", fields),
    ...countWords("chapters", chapters),
    ...countWords("calls to action", ctas),
  ];
  return `B against A — ${parts.join("; ")}.`;
}

const factLabels: Record<FactId, string> = {
  kind: "Kind",
  dimensions: "Size (width × height)",
  frameRate: "Frame rate",
  duration: "Duration",
  templateJson: fileRoleLabels.templateJson!,
  manifestJson: fileRoleLabels.manifestJson!,
  overlayJson: fileRoleLabels.overlayJson!,
  videoFile: fileRoleLabels.videoFile!,
  posterFile: fileRoleLabels.posterFile!,
  assetFiles: "Asset files",
  totalBytes: "All files",
};

/** A size in bytes, exact when rounding would show two different sizes as the same. */
const sizeOf = (bytes: number, exact: boolean) => (exact ? `${formatBytes(bytes)} (${bytes.toLocaleString("en")} bytes)` : formatBytes(bytes));

function factValue(id: FactId, value: string | number | null, side: Loaded, exact: boolean): string {
  if (value === null) return "—";
  switch (id) {
    case "kind":
      return kindLabels[value as TemplateJson["kind"]] ?? String(value);
    case "dimensions":
      return `${value} px`;
    case "frameRate":
      return `${Number(value).toLocaleString("en")} fps`;
    case "duration":
      return `${Number(value).toFixed(1)} s (${side.outline.durationFrames?.toLocaleString("en")} frames)`;
    case "assetFiles": {
      const count = side.template.files.assetFiles.length;
      return `${sizeOf(Number(value), exact)} in ${count} ${count === 1 ? "file" : "files"}`;
    }
    default:
      return sizeOf(Number(value), exact);
  }
}

function factRow(fact: FactDifference, a: Loaded, b: Loaded): CompareRow {
  const exact = fact.changed && typeof fact.a === "number" && typeof fact.b === "number" && formatBytes(fact.a) === formatBytes(fact.b);
  const cell = (value: string | number | null, side: Loaded) => {
    const text = factValue(fact.id, value, side, exact);
    return fact.changed ? <mark className="rounded bg-amber-100 px-0.5 font-semibold text-slate-900">{text}</mark> : text;
  };
  return { id: fact.id, label: factLabels[fact.id], change: fact.changed ? "changed" : "same", a: cell(fact.a, a), b: cell(fact.b, b) };
}

/** Fields, chapters or CTAs of both templates, matched by id: one row each, its properties side by side. */
function ItemsSection<T>({
  title,
  id,
  note,
  itemLabel,
  none,
  rows,
  sides,
  propertyLabel,
  itemsOf,
}: {
  title: string;
  id: string;
  note: string;
  itemLabel: string;
  none: string;
  rows: ItemDifference<T>[];
  sides: React.ComponentProps<typeof CompareTable>["sides"];
  propertyLabel: (property: keyof T & string) => string;
  itemsOf: (item: T, changed: readonly string[], side: "A" | "B") => React.ComponentProps<typeof Properties>["items"];
}) {
  return (
    <Section title={title} id={id} note={note}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{none}</p>
      ) : (
        <CompareTable
          caption={title}
          itemLabel={itemLabel}
          sides={sides}
          rows={rows.map((row) => ({
            id: row.id,
            label: <span className="font-mono text-xs">{row.id}</span>,
            change: row.change,
            changed: row.changed.map(propertyLabel),
            a: row.a ? <Properties items={itemsOf(row.a, row.changed, "A")} /> : <NotIn side="A" />,
            b: row.b ? <Properties items={itemsOf(row.b, row.changed, "B")} /> : <NotIn side="B" />,
          }))}
        />
      )}
    </Section>
  );
}

const fieldPropertyLabels: Record<keyof OutlineField, string> = { key: "key", type: "type", target: "target", default: "default", maxLength: "max length", strict: "bad data" };
const chapterPropertyLabels: Record<keyof Chapter, string> = { id: "id", name: "name", startFrame: "start frame", endFrame: "end frame" };

function fieldItems(field: OutlineField, changed: readonly string[]) {
  return [
    { label: "Type", value: field.type, changed: changed.includes("type") },
    { label: "Target", value: targetLabel(field.target), changed: changed.includes("target") },
    { label: "Default", value: field.default === null ? "—" : `“${field.default}”`, changed: changed.includes("default") },
    { label: "Max length", value: field.maxLength ?? "—", changed: changed.includes("maxLength") },
    { label: "Bad data", value: field.strict ? "refused (strict)" : "adapted", changed: changed.includes("strict") },
  ];
}

function chapterItems(chapter: Chapter, changed: readonly string[], frameRate: number | null) {
  const seconds = frameRate ? ` (${((chapter.endFrame - chapter.startFrame) / frameRate).toFixed(1)} s)` : "";
  return [
    { label: "Name", value: chapter.name, changed: changed.includes("name") },
    { label: "Frames", value: `${chapter.startFrame}–${chapter.endFrame}${seconds}`, changed: changed.includes("startFrame") || changed.includes("endFrame") },
  ];
}

function ctaItems(cta: ManifestCta, changed: readonly string[]) {
  return [
    { label: "Name", value: cta.name, changed: changed.includes("name") },
    { label: "Layer", value: cta.layer, changed: changed.includes("layer") },
  ];
}
