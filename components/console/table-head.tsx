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
