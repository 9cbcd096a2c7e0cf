/** One column of a console table's header: its label, and right-aligned for numbers. */
export type HeadColumn = { label: string; numeric?: boolean; className?: string };

/**
 * The header row of a console table (templates, campaigns, recipients, import problems): one
 * `<th scope="col">` per column, the cells' padding given once by `cellClassName`.
 */
export function TableHead({ columns, className, cellClassName }: { columns: HeadColumn[]; className: string; cellClassName: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => (
          <th key={column.label} scope="col" className={[cellClassName, column.numeric ? "text-right" : "", column.className ?? ""].filter(Boolean).join(" ")}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * Tables whose rows stack into cards on a phone, so that nothing (a link, its Copy button) is past
 * a sideways scroll: the table, its body and each row change display below `sm`, and every cell
 * shows its column's name above it (from its data-label). The header is then for screen readers.
 */
export const stacked = {
  table: "max-sm:block",
  head: "max-sm:sr-only",
  body: "max-sm:block",
  row: "max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-2 max-sm:p-3",
  cell: "max-sm:block max-sm:p-0 max-sm:before:block max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]",
} as const;
