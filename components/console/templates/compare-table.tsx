import { Badge, type BadgeTone } from "@/components/console/badge";
import { stacked, TableHead } from "@/components/console/table-head";
import type { Change } from "@/lib/templates/compare-templates";

// The compare page's tables: one row per fact, field, chapter or CTA, with A's and B's values
// side by side (stacked on a phone) and the difference in a word — "added", "removed",
// "changed" — as well as in colour; a changed value is marked in both cells.

const tones: Record<Exclude<Change, "same">, BadgeTone> = { added: "green", removed: "red", changed: "amber" };
const rowTones: Record<Change, string> = { added: "bg-green-50/60", removed: "bg-red-50/60", changed: "bg-amber-50/60", same: "" };

export type CompareRow = {
  id: string;
  label: React.ReactNode;
  change: Change;
  /** The changed properties' names, said after the word. */
  changed?: string[];
  a: React.ReactNode;
  b: React.ReactNode;
};

export function ChangeWord({ change, changed = [] }: { change: Change; changed?: string[] }) {
  if (change === "same") return <span className="text-slate-500">same</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={tones[change]}>{change}</Badge>
      {changed.length > 0 ? <span className="text-xs text-slate-600">{changed.join(", ")}</span> : null}
    </span>
  );
}

type Props = { caption: string; itemLabel: string; sides: { a: string; b: string }; rows: CompareRow[] };

export function CompareTable({ caption, itemLabel, sides, rows }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200 max-sm:overflow-visible">
      <table className={`min-w-full table-fixed divide-y divide-slate-200 text-sm ${stacked.table}`}>
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col className="w-[22%]" />
          <col className="w-[18%]" />
          <col className="w-[30%]" />
          <col className="w-[30%]" />
        </colgroup>
        <TableHead
          className={`bg-slate-50 text-left text-xs font-semibold text-slate-600 ${stacked.head}`}
          cellClassName="px-3 py-2"
          columns={[{ label: itemLabel }, { label: "Difference" }, { label: sides.a }, { label: sides.b }]}
        />
        <tbody className={`divide-y divide-slate-100 ${stacked.body}`}>
          {rows.map((row) => (
            <tr key={row.id} className={`${rowTones[row.change]} ${stacked.row}`}>
              <th scope="row" className="break-words px-3 py-2 text-left align-top font-medium max-sm:p-0">
                {row.label}
              </th>
              <td data-label="Difference" className={`px-3 py-2 align-top ${stacked.cell}`}>
                <ChangeWord change={row.change} changed={row.changed} />
              </td>
              <td data-label={sides.a} className={`break-words px-3 py-2 align-top max-sm:col-span-2 ${stacked.cell}`}>
                {row.a}
              </td>
              <td data-label={sides.b} className={`break-words px-3 py-2 align-top max-sm:col-span-2 ${stacked.cell}`}>
                {row.b}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An item's properties, one per line; a changed one is marked (and the row's word says which). */
export function Properties({ items }: { items: { label: string; value: React.ReactNode; changed: boolean }[] }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="text-xs text-slate-500">{item.label}</dt>
          <dd className="min-w-0 break-words">{item.changed ? <mark className="rounded bg-amber-100 px-0.5 font-semibold text-slate-900">{item.value}</mark> : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function NotIn({ side }: { side: string }) {
  return <p className="italic text-slate-500">Not in {side}</p>;
}
