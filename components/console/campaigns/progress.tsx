/** A labelled progress bar with its count ("1,200 / 5,000 rows"); an unknown total shows a sliver. */
export function Progress({ label, done, total, unit }: { label: string; done: number; total: number | null; unit: string }) {
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : null;
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-sm text-slate-700">
        <span>{label}…</span>
        <span className="tabular-nums">
          {done.toLocaleString("en-US")}
          {total ? ` / ${total.toLocaleString("en-US")}` : ""} {unit}
        </span>
      </div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent ?? undefined} className="h-2 overflow-hidden rounded-full bg-slate-100">
        <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent ?? 5}%` }} />
      </div>
    </div>
  );
}
