"use client";

import dynamic from "next/dynamic";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/console/button";
import { inputClass } from "@/components/console/field";
import { EmptyState, ErrorState, LoadingState } from "@/components/console/states";
import { analyticsCsv } from "@/lib/console/analytics/analytics-csv";
import type { AnalyticsReport } from "@/lib/console/analytics/analytics-types";
import { analyticsSearch, heatmapSearch, readView, viewSearch, viewWindow, type DashboardView } from "@/lib/console/analytics/dashboard-view";
import { problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useAnalyticsReport, useHeatmap, useQuarantine } from "@/lib/console/hooks/analytics";
import { AnalyticsFilters } from "./analytics-filters";
import { KpiTiles } from "./kpi-tiles";
import { QuarantinePanel } from "./quarantine-panel";
import { BreakdownTable, ChaptersReached, Panel, QuartileFunnel } from "./report-tables";
import { VariantComparisonPanel } from "./variant-comparison";

// recharts is half of this page's JavaScript (docs/benchmarks.md, "Console pages"): the two
// charts load on their own once the page is up, in a box of their height meanwhile, and not at
// all when the period has no views.
const chartPlaceholder = () => <div className="h-72 animate-pulse rounded-lg bg-slate-100" aria-hidden />;
const TimeSeriesChart = dynamic(() => import("./time-series-chart").then((module) => module.TimeSeriesChart), { ssr: false, loading: chartPlaceholder });
const EngagementHeatmap = dynamic(() => import("./engagement-heatmap").then((module) => module.EngagementHeatmap), { ssr: false, loading: chartPlaceholder });

export type DashboardTemplate = { id: string; name: string; version: string; status: string };

type Props = {
  projectId: string;
  templates: DashboardTemplate[];
  /** The server's clock when it rendered: the presets' window until the viewer changes the view (same text on both sides of hydration). */
  renderedAt: string;
  initial: { search: string; report: AnalyticsReport };
};

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
const describeCountry = (code: string) => {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return `${regionNames.of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
};

/** How recent the report is: "Updating…" while the rollup job has events the report does not include yet. */
function Freshness({ freshness }: { freshness: AnalyticsReport["freshness"] }) {
  if (freshness.pendingEvents > 0) {
    return (
      <p data-testid="analytics-freshness" role="status" className="flex items-center gap-2 text-amber-700">
        <span aria-hidden className="h-2 w-2 animate-pulse rounded-full bg-amber-500" />
        Updating… {freshness.pendingEvents.toLocaleString("en")} recent events not counted yet
        {freshness.asOf ? ` (complete up to ${formatDateTime(freshness.asOf)})` : ""}
      </p>
    );
  }
  return (
    <p data-testid="analytics-freshness" role="status" className="text-slate-500">
      {freshness.asOf ? `Up to date: last event received ${formatDateTime(freshness.asOf)}` : "Up to date"}
    </p>
  );
}

/** The project's analytics for the view in the URL: KPIs, series, funnel, heatmap, breakdowns and refused events. */
export function AnalyticsDashboard({ projectId, templates, renderedAt, initial }: Props) {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = readView(searchParams);
  const [now, setNow] = useState(() => new Date(renderedAt));

  const period = viewWindow(view, now);
  const search = analyticsSearch(period, view);
  const report = useAnalyticsReport(projectId, search, initial);
  const data = report.data;

  const heatmapTemplateId = view.heatmapTemplateId ?? view.templateId ?? templates.find((t) => t.status === "Production")?.id ?? templates[0]?.id ?? null;
  const heatmapQuery = heatmapTemplateId ? heatmapSearch(period, { ...view, templateId: heatmapTemplateId }) : null;
  const heatmap = useHeatmap(projectId, heatmapQuery);
  const quarantine = useQuarantine(projectId, new URLSearchParams({ from: period.from.toISOString(), to: period.to.toISOString() }).toString());

  const change = (next: DashboardView) => {
    const query = viewSearch(next);
    router.push(query ? `?${query}` : pathname, { scroll: false });
    setNow(new Date());
  };

  const templateOptions = templates.map((t) => ({ value: t.id, label: `${t.name} ${t.version} (${t.status})` }));
  const keys = (rows: { key: string }[] | undefined) => (rows ?? []).map((row) => row.key);
  const filters = (
    <AnalyticsFilters
      view={view}
      onChange={change}
      templates={templateOptions}
      seen={{ templateVersion: keys(data?.breakdowns.templateVersion), deviceType: keys(data?.breakdowns.deviceType), country: keys(data?.breakdowns.country) }}
    />
  );

  if (!data) {
    return (
      <div className="space-y-4">
        {filters}
        {report.error ? <ErrorState message={problemMessage(report.error)} retry={() => void report.refetch()} /> : <LoadingState label="Loading analytics…" />}
      </div>
    );
  }

  const empty = data.summary.sessions === 0 && data.summary.plays === 0 && data.summary.ctaClicks === 0;
  const exportCsv = () => {
    const csv = analyticsCsv(data, { filters: { channel: view.channel, templateId: view.templateId, templateVersion: view.templateVersion, deviceType: view.deviceType, country: view.country } }, heatmap.data ?? null);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
    link.download = `analytics-${data.window.from.slice(0, 10)}-${data.window.to.slice(0, 10)}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  return (
    <div className="space-y-4" aria-busy={report.isFetching || undefined}>
      {filters}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <p data-testid="analytics-window">
          {formatDateTime(data.window.from)} – {formatDateTime(data.window.to)}
          {data.excluded.botEvents > 0 ? ` · ${data.excluded.botEvents} bot events left out` : ""}
        </p>
        <Freshness freshness={data.freshness} />
        <Button onClick={exportCsv}>Export CSV</Button>
      </div>
      {report.error ? <ErrorState message={problemMessage(report.error)} retry={() => void report.refetch()} /> : null}
      {/* The chosen channel's A/B test over its whole run, whatever the period; PROD's with all channels. */}
      <VariantComparisonPanel projectId={projectId} channel={view.channel ?? "PROD"} />
      {empty ? (
        <EmptyState title="No views in this period" action={{ href: `/projects/${projectId}/shares`, label: "Go to the shares" }}>
          Nobody opened a share or an embedded player of this project {view.channel || view.templateId ? "with these filters " : ""}in this period. Share a video
          link, or widen the range.
        </EmptyState>
      ) : (
        <>
          <KpiTiles summary={data.summary} previous={data.previous.summary} />
          <div className="grid gap-4 lg:grid-cols-3">
            <div className="min-w-0 lg:col-span-2">
              <TimeSeriesChart points={data.series.points} granularity={data.series.granularity} />
            </div>
            <QuartileFunnel funnel={data.funnel} />
          </div>
          <Panel title="Engagement along the video" testId="heatmap">
            {templates.length > 0 ? (
              <div className="mb-3 max-w-md">
                <label htmlFor="heatmap-template" className="block text-xs font-medium text-slate-600">
                  Template
                </label>
                <select id="heatmap-template" className={inputClass} value={heatmapTemplateId ?? ""} onChange={(event) => change({ ...view, heatmapTemplateId: event.target.value || null })}>
                  {templates.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name} {t.version} ({t.status})
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            {!heatmapQuery ? (
              <p className="text-sm text-slate-500">The project has no template yet.</p>
            ) : heatmap.data ? (
              heatmap.data.plays > 0 ? (
                <EngagementHeatmap heatmap={heatmap.data} />
              ) : (
                <p className="text-sm text-slate-500">No play of this template reported what it watched in this period.</p>
              )
            ) : heatmap.error ? (
              <ErrorState message={problemMessage(heatmap.error)} retry={() => void heatmap.refetch()} />
            ) : (
              <LoadingState label="Loading the heatmap…" />
            )}
          </Panel>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <BreakdownTable title="Devices" keyLabel="Device" rows={data.breakdowns.deviceType} />
            <BreakdownTable title="Browsers" keyLabel="Browser" rows={data.breakdowns.browser} />
            <BreakdownTable title="Operating systems" keyLabel="OS" rows={data.breakdowns.os} />
            <BreakdownTable title="Countries" keyLabel="Country" rows={data.breakdowns.country} describe={describeCountry} />
            <BreakdownTable title="Referrers" keyLabel="Referrer" rows={data.breakdowns.referrerHost} />
            <BreakdownTable title="Template versions" keyLabel="Version" rows={data.breakdowns.templateVersion} />
          </div>
          <div className="grid gap-4 lg:grid-cols-3">
            <ChaptersReached chapters={data.chapters} />
            <BreakdownTable title="Channels" keyLabel="Channel" rows={data.breakdowns.channel} />
          </div>
        </>
      )}
      <Panel title="Refused events" testId="quarantine">
        {quarantine.data ? (
          <QuarantinePanel report={quarantine.data} />
        ) : quarantine.error ? (
          <ErrorState message={problemMessage(quarantine.error)} retry={() => void quarantine.refetch()} />
        ) : (
          <LoadingState label="Loading refused events…" />
        )}
      </Panel>
    </div>
  );
}
