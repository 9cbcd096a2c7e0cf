import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { optimisticList } from "./optimistic";
import type { ShareBody } from "@/lib/console/shares/share-form";
import type { rotatedSlugSchema, savedShareSchema, shareSchema } from "@/lib/shares/contract";
import type { variantsSchema } from "@/lib/releases/contract";

// The project's three shares (DEV, STAGING, PROD) through the REST API. Every change refreshes
// the shares and the audit log; disable and restore show at once and roll back if refused.

export type ShareJson = z.infer<typeof shareSchema>;
/** PUT's answer: the share and its data's warnings. */
export type SavedShareJson = z.infer<typeof savedShareSchema>;
export type Channel = ShareJson["channel"];
type Rotated = z.infer<typeof rotatedSlugSchema>;

const sharesPath = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/public-video-shares`;

export function useShares(projectId: string, initialData?: ShareJson[]) {
  return useQuery({
    queryKey: queryKeys.shares(projectId),
    queryFn: ({ signal }) => apiRequest<{ items: ShareJson[] }>(sharesPath(projectId), { signal }).then((page) => page.items),
    initialData,
  });
}

function refresh(client: QueryClient, projectId: string) {
  return Promise.all([client.invalidateQueries({ queryKey: queryKeys.shares(projectId) }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]);
}

export function usePutShare(projectId: string, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ShareBody) => apiRequest<SavedShareJson>(`${sharesPath(projectId)}/${channel}`, { method: "PUT", json: body }),
    onSettled: () => refresh(client, projectId),
  });
}

export function useShareStatus(projectId: string, channel: Channel, currentUserId: string) {
  const client = useQueryClient();
  const key = queryKeys.shares(projectId);
  return useMutation({
    mutationFn: (target: "disable" | "restore") => apiRequest<ShareJson>(`${sharesPath(projectId)}/${channel}/${target}`, { method: "POST" }),
    ...optimisticList<ShareJson, "disable" | "restore">(client, key, (shares, target) => {
      const now = new Date().toISOString();
      const change = (share: ShareJson): ShareJson =>
        target === "disable"
          ? { ...share, status: "Disabled", disabledAt: now, disabledBy: currentUserId }
          : { ...share, status: "Enabled", restoredAt: now, restoredBy: currentUserId };
      return shares.map((share) => (share.channel === channel ? change(share) : share));
    }),
    onSettled: () => refresh(client, projectId),
  });
}

export function useRotateSlug(projectId: string, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Rotated>(`${sharesPath(projectId)}/${channel}/rotate-slug`, { method: "POST" }),
    onSettled: () => refresh(client, projectId),
  });
}

/** PUT …/channels/{DEV|STAGING}: pins a Testing template to the channel, or unpins it (null). */
export function usePinChannel(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channel, templateId }: { channel: "DEV" | "STAGING"; templateId: string | null }) =>
      apiRequest<unknown>(`/api/Projects/${encodeURIComponent(projectId)}/channels/${channel}`, { method: "PUT", json: { templateId } }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
  });
}

export type VariantsJson = z.infer<typeof variantsSchema>;
const variantsPath = (projectId: string, channel: Channel) => `${sharesPath(projectId)}/${channel}/variants`;

/** GET …/variants: the share's A/B test (empty when none runs). Keyed under the shares: a share change refreshes it. */
export function useShareVariants(projectId: string, channel: Channel) {
  return useQuery({
    queryKey: [...queryKeys.shares(projectId), channel, "variants"],
    queryFn: ({ signal }) => apiRequest<VariantsJson>(variantsPath(projectId, channel), { signal }),
  });
}

/** PUT …/variants: starts, changes or (an empty list) ends the share's A/B test. */
export function usePutVariants(projectId: string, channel: Channel) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variants: { templateId: string; weight: number }[]) => apiRequest<VariantsJson>(variantsPath(projectId, channel), { method: "PUT", json: { variants } }),
    onSettled: () => Promise.all([queryKeys.shares(projectId), queryKeys.audit(projectId)].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
