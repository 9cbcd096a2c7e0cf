import type { QuarantineReport } from "@/lib/console/analytics/analytics-types";
import { formatDateTime } from "@/lib/console/format";
import { ColumnHeads } from "./report-tables";

/** Events the ingest refused although their token was the project's: why, how many, and the newest few. */
export function QuarantinePanel({ report }: { report: QuarantineReport }) {
  if (report.reasons.length === 0) return <p className="text-sm text-slate-500">No event was refused in this period.</p>;
  return (
    <div className="space-y-3">
      <table className="w-full text-sm">
        <ColumnHeads columns={["Reason", "Events"]} />
        <tbody>
          {report.reasons.map((reason) => (
            <tr key={reason.reason}>
              <td className="py-1 pr-2 font-mono text-xs break-all">{reason.reason}</td>
              <td className="py-1 text-right tabular-nums">{reason.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.samples.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Newest refused events ({report.samples.length})</summary>
          <ol className="mt-2 space-y-2">
            {report.samples.slice(0, 10).map((sample, index) => (
              <li key={`${sample.receivedAt}-${index}`} className="rounded bg-slate-50 p-2 ring-1 ring-slate-200">
                <p className="text-xs text-slate-600">
                  {formatDateTime(sample.receivedAt)} · <span className="font-mono">{sample.reason}</span>
                </p>
                <pre tabIndex={0} aria-label={`Refused event ${index + 1}`} className="mt-1 max-h-40 overflow-auto text-xs whitespace-pre-wrap break-all focus-visible:outline-2 focus-visible:outline-indigo-600">{JSON.stringify(sample.event, null, 2)}</pre>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
