import type { AnalyticsSummary } from "@/lib/console/analytics/analytics-types";
import { formatKpi, kpiChange, kpis } from "@/lib/console/analytics/kpis";

/** One tile per KPI: the value and its change against the previous period of the same length. */
export function KpiTiles({ summary, previous }: { summary: AnalyticsSummary; previous: AnalyticsSummary | null }) {
  return (
    <ul aria-label="Key figures" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
      {kpis.map((kpi) => {
        const change = previous ? kpiChange(kpi, summary[kpi.key], previous[kpi.key]) : null;
        const tone = change?.good === true ? "text-green-700" : change?.good === false ? "text-red-700" : "text-slate-500";
        return (
          <li key={kpi.key} data-testid={`kpi-${kpi.key}`} className="rounded-lg bg-white px-3 py-2 ring-1 ring-slate-200">
            <p className="truncate text-xs font-medium text-slate-600">{kpi.label}</p>
            <p className="text-2xl font-semibold tabular-nums text-slate-900">{formatKpi(kpi.kind, summary[kpi.key])}</p>
            <p className={`text-xs tabular-nums ${tone}`}>
              {change ? (
                <>
                  <span aria-hidden>{change.direction === "up" ? "▲ " : change.direction === "down" ? "▼ " : ""}</span>
                  {change.text} <span className="text-slate-500">vs previous period</span>
                </>
              ) : previous ? (
                <span className="text-slate-500">no comparison</span>
              ) : (
                <span className="text-slate-400">…</span>
              )}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
