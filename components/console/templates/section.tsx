/** A titled part of a template page (the template's own, the comparison): a heading, a note under it, then its content. */
export function Section({ title, id, note, children }: { title: string; id: string; note?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {title}
        </h2>
        {note ? <p className="text-sm text-slate-600">{note}</p> : null}
      </div>
      {children}
    </section>
  );
}
