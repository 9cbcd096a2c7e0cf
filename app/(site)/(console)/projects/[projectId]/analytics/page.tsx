import type { Metadata } from "next";
import { AnalyticsDashboard } from "@/components/console/analytics/analytics-dashboard";
import { getProjectAnalytics } from "@/lib/analytics/get-project-analytics";
import { analyticsQuery, projectAnalyticsSchema } from "@/lib/analytics/contract";
import { analyticsSearch, readView, viewWindow } from "@/lib/console/analytics/dashboard-view";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";
import { listTemplates } from "@/lib/templates/templates";

export const metadata: Metadata = { title: "Analytics" };

type Props = { params: Promise<{ projectId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The project's analytics for the view in the URL: the first report is read here through the
// API's own verb and query schema (Viewer and up, `analytics.read`); the dashboard then asks the
// API for every other view.
export default async function AnalyticsPage({ params, searchParams }: Props) {
  const { projectId } = await params;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) if (typeof value === "string") query.set(name, value);
  const page = await requireProjectPage(projectId);

  const renderedAt = new Date();
  const view = readView(query);
  const search = analyticsSearch(viewWindow(view, renderedAt), view);
  const [report, templates] = await loadPageData(() =>
    Promise.all([getProjectAnalytics(page, analyticsQuery.parse(Object.fromEntries(new URLSearchParams(search)))), listTemplates(page)]),
  );
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Analytics</h1>
      <AnalyticsDashboard
        projectId={projectId}
        templates={templates.map(({ id, name, version, status }) => ({ id, name, version, status }))}
        renderedAt={renderedAt.toISOString()}
        initial={{ search, report: asApiJson(projectAnalyticsSchema, report) }}
      />
    </section>
  );
}
