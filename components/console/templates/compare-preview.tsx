"use client";

import { useMemo, useState } from "react";
import { previewData } from "@/lib/console/templates/preview-data";
import type { TemplateJson } from "@/lib/console/templates/template-rules";
import type { ItemDifference } from "@/lib/templates/compare-templates";
import type { OutlineField } from "@/lib/templates/template-outline";
import { targetLabel } from "./outline-labels";
import { PreviewFields, type PreviewFormField } from "./preview-fields";
import { PreviewPlayer } from "./preview-player";

export type PreviewSide = { letter: "A" | "B"; template: TemplateJson; fields: readonly OutlineField[] };

const quoted = (value: string | null) => (value ? `“${value}”` : "none");

/**
 * One input per key either template binds (the comparison's rows, in its order), noted with
 * where it goes in each and, when A and B disagree, each one's default and length limit.
 */
export function unionFields(rows: readonly ItemDifference<OutlineField>[]): PreviewFormField[] {
  return rows.map(({ id, a, b }) => {
    if (!a || !b) {
      const only = (a ?? b)!;
      return { key: id, type: only.type, default: only.default, maxLength: only.maxLength, note: `only in ${a ? "A" : "B"}: ${targetLabel(only.target)}` };
    }
    const notes = [targetLabel(a.target) === targetLabel(b.target) ? `${targetLabel(b.target)} in both` : `A: ${targetLabel(a.target)}, B: ${targetLabel(b.target)}`];
    if (a.type !== b.type) notes.push(`${a.type} in A, ${b.type} in B (the input is B's; A gets no value)`);
    const sameDefault = a.default === b.default;
    if (!sameDefault) notes.push(`default ${quoted(a.default)} in A, ${quoted(b.default)} in B`);
    const sameMax = a.maxLength === b.maxLength;
    if (!sameMax) notes.push(`cut to ${a.maxLength ?? "no limit"} characters in A, ${b.maxLength ?? "no limit"} in B`);
    return { key: id, type: b.type, default: sameDefault ? b.default : null, maxLength: sameMax ? b.maxLength : null, note: notes.join(" · ") };
  });
}

/** A side's data: the values typed for keys it binds with the input's type, else its own defaults (previewData). */
function sideData(side: PreviewSide, form: readonly PreviewFormField[], values: Readonly<Record<string, string>>) {
  const inputType = new Map(form.map((field) => [field.key, field.type]));
  const usable = Object.fromEntries(Object.entries(values).filter(([key]) => side.fields.some((field) => field.key === key && field.type === inputType.get(key))));
  return previewData(side.fields, usable);
}

/** Both templates playing in the real player, side by side (stacked on a phone), from one form. */
export function ComparePreview({ projectId, sides, rows }: { projectId: string; sides: [PreviewSide, PreviewSide]; rows: readonly ItemDifference<OutlineField>[] }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const form = useMemo(() => unionFields(rows), [rows]);
  const [a, b] = sides;
  const dataA = useMemo(() => sideData(a, form, values), [a, form, values]);
  const dataB = useMemo(() => sideData(b, form, values), [b, form, values]);

  return (
    <div className="space-y-6">
      <form className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" onSubmit={(event) => event.preventDefault()} aria-label="Preview data for both templates">
        <PreviewFields
          fields={form}
          values={values}
          onChange={(key, value) => setValues((current) => ({ ...current, [key]: value }))}
          emptyText="Neither template binds a field: both play as uploaded."
        />
      </form>
      <div className="grid gap-6 md:grid-cols-2">
        {[
          { side: a, data: dataA },
          { side: b, data: dataB },
        ].map(({ side, data }) => (
          <section key={side.letter} aria-labelledby={`preview-${side.letter}-heading`} className="min-w-0 space-y-2">
            <h3 id={`preview-${side.letter}-heading`} className="text-sm font-semibold">
              {side.letter} · {side.template.name} {side.template.version}
            </h3>
            {/* Another template is another player: a fresh start, not the last one's status. */}
            <PreviewPlayer key={side.template.id} projectId={projectId} template={side.template} data={data} />
          </section>
        ))}
      </div>
    </div>
  );
}
