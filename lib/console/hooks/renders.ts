import { useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/console/api-client";

// Renders of a template in the console: POST queues one, then its status is polled until it is
// done (with a signed download URL) or failed.

export type RenderFormatChoice = "mp4" | "gif" | "png";
export type ConsoleRender = {
  id: string;
  status: "queued" | "rendering" | "done" | "failed";
  error: string | null;
  format: RenderFormatChoice;
  bytes: number | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  downloadUrl?: string;
  expiresAt?: string;
};

const rendersPath = (projectId: string, templateId: string) =>
  `/api/Projects/${encodeURIComponent(projectId)}/templates/${encodeURIComponent(templateId)}/renders`;

export function useCreateRender(projectId: string, templateId: string) {
  return useMutation({
    mutationFn: (body: { data: Record<string, string>; format: RenderFormatChoice }) =>
      apiRequest<{ id: string; status: string; warnings: string[] }>(rendersPath(projectId, templateId), { method: "POST", json: body }),
  });
}

/** The render, polled every second while it is queued or rendering. */
export function useRender(projectId: string, templateId: string, renderId: string | undefined) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", templateId, "renders", renderId ?? ""],
    queryFn: ({ signal }) => apiRequest<ConsoleRender>(`${rendersPath(projectId, templateId)}/${encodeURIComponent(renderId!)}`, { signal }),
    enabled: renderId !== undefined,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === "done" || query.state.data.status === "failed") ? false : 1000),
  });
}
