import type { AnalyticsReport, BreakdownRow, ChapterReached } from "@/lib/console/analytics/analytics-types";
import { formatKpi } from "@/lib/console/analytics/kpis";

// The funnel, the breakdowns and the chapters as tables with bars: exact numbers to read, and
// shares to compare at a glance.

function Bar({ share, tone = "bg-indigo-500" }: { share: number | null; tone?: string }) {
  const width = `${Math.round((share ?? 0) * 1000) / 10}%`;
  return (
    <span aria-hidden className="block h-1.5 w-full rounded-full bg-slate-100">
      <span className={`block h-1.5 rounded-full ${tone}`} style={{ width }} />
    </span>
  );
}

/** A table's header row: the first column (the key) to the left, the numbers to the right. */
export function ColumnHeads({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr className="text-xs text-slate-500">
        {columns.map((column, i) => (
          <th key={column} scope="col" className={`${i === 0 ? "text-left" : "text-right"} font-medium`}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section aria-label={title} data-testid={testId} className="min-w-0 rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <h2 className="mb-2 text-sm font-semibold text-slate-800">{title}</h2>
      {children}
    </section>
  );
}

export function QuartileFunnel({ funnel }: { funnel: AnalyticsReport["funnel"] }) {
  return (
    <Panel title="Quartile funnel" testId="funnel">
      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th>Reached</th>
            <th>Plays</th>
            <th>Share of plays</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className="py-1 text-left font-normal text-slate-600">
              Started
            </th>
            <td className="w-1/2 px-2">
              <Bar share={funnel.plays > 0 ? 1 : 0} />
            </td>
            <td className="text-right tabular-nums">{funnel.plays}</td>
            <td className="w-16 text-right tabular-nums text-slate-500">{funnel.plays > 0 ? "100 %" : "—"}</td>
          </tr>
          {funnel.steps.map((step) => (
            <tr key={step.percent} data-testid={`funnel-${step.percent}`}>
              <th scope="row" className="py-1 text-left font-normal text-slate-600">
                {step.percent === 100 ? "Completed" : `${step.percent} %`}
              </th>
              <td className="w-1/2 px-2">
                <Bar share={step.share} />
              </td>
              <td className="text-right tabular-nums">{step.count}</td>
              <td className="w-16 text-right tabular-nums text-slate-500">{formatKpi("rate", step.share)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function BreakdownTable({ title, rows, keyLabel, describe = (key) => key }: { title: string; rows: BreakdownRow[]; keyLabel: string; describe?: (key: string) => string }) {
  const top = rows.slice(0, 8);
  const maxSessions = Math.max(1, ...top.map((row) => Math.max(row.sessions, row.plays)));
  return (
    <Panel title={title} testId={`breakdown-${keyLabel}`}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing in this period.</p>
      ) : (
        <table className="w-full text-sm">
          <ColumnHeads columns={[keyLabel, "Sessions", "Plays", "Done", "CTA"]} />
          <tbody>
            {top.map((row) => (
              <tr key={row.key} className="align-top">
                <th scope="row" className="max-w-[10rem] py-1 pr-2 text-left font-normal">
                  <span className="block truncate" title={row.key}>
                    {describe(row.key)}
                  </span>
                  <Bar share={Math.max(row.sessions, row.plays) / maxSessions} tone="bg-indigo-300" />
                </th>
                <td className="py-1 text-right tabular-nums">{row.sessions}</td>
                <td className="py-1 text-right tabular-nums">{row.plays}</td>
                <td className="py-1 text-right tabular-nums">{row.completions}</td>
                <td className="py-1 text-right tabular-nums">{row.ctaClicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length > top.length ? <p className="mt-1 text-xs text-slate-500">and {rows.length - top.length} more in the CSV export</p> : null}
    </Panel>
  );
}

export function ChaptersReached({ chapters }: { chapters: ChapterReached[] }) {
  return (
    <Panel title="Chapters reached" testId="chapters">
      {chapters.length === 0 ? (
        <p className="text-sm text-slate-500">No chapter was entered in this period.</p>
      ) : (
        <table className="w-full text-sm">
          <ColumnHeads columns={["Chapter", "Plays", "Of plays"]} />
          <tbody>
            {chapters.map((chapter) => (
              <tr key={chapter.chapterId}>
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  <span className="block truncate">{chapter.chapterName}</span>
                  <Bar share={chapter.share} tone="bg-emerald-400" />
                </th>
                <td className="py-1 text-right tabular-nums">{chapter.plays}</td>
                <td className="py-1 text-right tabular-nums">{formatKpi("rate", chapter.share)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
