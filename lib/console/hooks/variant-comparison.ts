import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Channel } from "@/lib/db/schema";
import type { VariantComparison } from "@/lib/experiments/contract";
import { ApiProblem, apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";

// A share's A/B test compared (GET …/public-video-shares/{channel}/variants/comparison), over the
// whole test. Keyed under the project's shares, so a change of the share or its variants, which
// refreshes the shares, refreshes this too. Asked again every few seconds while events are still
// being rolled up, as the analytics report is.

const pendingRefetchMs = 5_000;

export function useVariantComparison(projectId: string, channel: Channel) {
  return useQuery({
    queryKey: [...queryKeys.shares(projectId), channel, "variants", "comparison"],
    queryFn: ({ signal }) =>
      apiRequest<VariantComparison>(`/api/Projects/${encodeURIComponent(projectId)}/public-video-shares/${channel}/variants/comparison`, { signal }),
    refetchInterval: (query) => ((query.state.data?.freshness.pendingEvents ?? 0) > 0 ? pendingRefetchMs : false),
  });
}

/** The API's way of saying the channel runs no A/B test: a share without variants (409), or no share at all (404). */
export function isNoAbTest(error: unknown): boolean {
  return error instanceof ApiProblem && (error.status === 409 || error.status === 404);
}

/** POST …/variants/promote: the winner goes live (Production) and the test ends. */
export function usePromoteVariant(projectId: string, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) =>
      apiRequest<unknown>(`/api/Projects/${encodeURIComponent(projectId)}/public-video-shares/${channel}/variants/promote`, { method: "POST", json: { templateId } }),
    onSettled: () =>
      Promise.all(
        [queryKeys.shares(projectId), queryKeys.templates(projectId), queryKeys.audit(projectId)].map((queryKey) => client.invalidateQueries({ queryKey })),
      ),
  });
}
