import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AnalyticsReport, HeatmapReport, QuarantineReport } from "@/lib/console/analytics/analytics-types";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";

// A project's analytics reports, one query per API query string. The page's server render
// answers the first one (initialData); a changed filter keeps showing the previous numbers
// until the new ones arrive. A report that says events are still being rolled up is asked again
// every few seconds until it is complete.

/** How often a report with pending events is asked again. */
const pendingRefetchMs = 5_000;

const base = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/analytics`;

export function useAnalyticsReport(projectId: string, search: string, initial?: { search: string; report: AnalyticsReport }) {
  return useQuery({
    queryKey: [...queryKeys.analytics(projectId), "report", search],
    queryFn: ({ signal }) => apiRequest<AnalyticsReport>(`${base(projectId)}?${search}`, { signal }),
    initialData: initial?.search === search ? initial.report : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => ((query.state.data?.freshness.pendingEvents ?? 0) > 0 ? pendingRefetchMs : false),
  });
}

export function useHeatmap(projectId: string, search: string | null) {
  return useQuery({
    queryKey: [...queryKeys.analytics(projectId), "heatmap", search],
    queryFn: ({ signal }) => apiRequest<HeatmapReport>(`${base(projectId)}/heatmap?${search}`, { signal }),
    enabled: search !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuarantine(projectId: string, search: string) {
  return useQuery({
    queryKey: [...queryKeys.analytics(projectId), "quarantine", search],
    queryFn: ({ signal }) => apiRequest<QuarantineReport>(`${base(projectId)}/quarantine?${search}`, { signal }),
    retry: false,
  });
}
