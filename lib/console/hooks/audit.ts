import { useInfiniteQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { auditEventPageSchema } from "@/lib/audit/contract";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";

// A project's audit log, page by page (the API's cursor), filtered by actor and action.

export type AuditPage = z.infer<typeof auditEventPageSchema>;
export type AuditFilters = { actor?: string; action?: string };

export function useAuditLog(projectId: string, filters: AuditFilters, firstPage?: AuditPage) {
  const unfiltered = !filters.actor && !filters.action;
  return useInfiniteQuery({
    queryKey: [...queryKeys.audit(projectId), filters],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: "25" });
      if (pageParam) query.set("cursor", pageParam);
      if (filters.actor) query.set("actor", filters.actor);
      if (filters.action) query.set("action", filters.action);
      return apiRequest<AuditPage>(`/api/Projects/${encodeURIComponent(projectId)}/audit-events?${query}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    initialData: unfiltered && firstPage ? { pages: [firstPage], pageParams: [null] } : undefined,
  });
}
