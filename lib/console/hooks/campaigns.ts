import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { campaignDetailSchema, campaignImportSchema, campaignSchema, CreateCampaignInput, recipientPageSchema } from "@/lib/campaigns/contract";
import type { queuedThumbnailsSchema, thumbnailPageSchema } from "@/lib/renders/contract";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { uploadWithProgress, type UploadProgress } from "@/lib/console/upload-request";

// A project's campaigns through /api/Projects/{projectId}/campaigns: the list, one campaign
// (polled while an import runs), its recipients page by page, and the CSV upload.

export type CampaignJson = z.infer<typeof campaignSchema>;
export type CampaignDetailJson = z.infer<typeof campaignDetailSchema>;
export type CampaignImportJson = z.infer<typeof campaignImportSchema>;
export type RecipientPageJson = z.infer<typeof recipientPageSchema>;
export type ThumbnailPageJson = z.infer<typeof thumbnailPageSchema>;

const campaignsPath = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/campaigns`;
export const campaignPath = (projectId: string, campaignId: string) => `${campaignsPath(projectId)}/${encodeURIComponent(campaignId)}`;

export function useCampaigns(projectId: string, initialData?: CampaignJson[]) {
  return useQuery({
    queryKey: queryKeys.campaigns(projectId),
    queryFn: ({ signal }) => apiRequest<{ items: CampaignJson[] }>(campaignsPath(projectId), { signal }).then((page) => page.items),
    initialData,
  });
}

export function useCreateCampaign(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCampaignInput) => apiRequest<CampaignJson>(campaignsPath(projectId), { method: "POST", json: input }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.campaigns(projectId) }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]),
  });
}

/** How often the page asks for an import's progress while one runs. */
const progressPollMs = 1000;

/** One campaign; polled every second while `importing` (an upload of this page) or any import is running. */
export function useCampaign(projectId: string, campaignId: string, initialData: CampaignDetailJson, importing: boolean) {
  return useQuery({
    queryKey: queryKeys.campaign(projectId, campaignId),
    queryFn: ({ signal }) => apiRequest<CampaignDetailJson>(campaignPath(projectId, campaignId), { signal }),
    initialData,
    refetchInterval: (query) => (importing || query.state.data?.imports.some((item) => item.status === "running") ? progressPollMs : false),
  });
}

export function useRecipients(projectId: string, campaignId: string, pageSize = 50) {
  return useInfiniteQuery({
    queryKey: queryKeys.campaignRecipients(projectId, campaignId),
    queryFn: ({ signal, pageParam }) =>
      apiRequest<RecipientPageJson>(`${campaignPath(projectId, campaignId)}/recipients?limit=${pageSize}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** Sends a CSV file as it is (text/csv), reporting how much of it went up. */
export function useUploadRecipients(projectId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (progress: UploadProgress) => void }) =>
      uploadWithProgress<CampaignImportJson>(`${campaignPath(projectId, campaignId)}/recipients`, { form: file, headers: { "Content-Type": "text/csv" }, onProgress }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.campaign(projectId, campaignId) }),
        client.invalidateQueries({ queryKey: queryKeys.campaignRecipients(projectId, campaignId) }),
        client.invalidateQueries({ queryKey: queryKeys.campaigns(projectId) }),
        client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
      ]),
  });
}

/** How often the thumbnails are asked for while some are still rendering. */
const thumbnailPollMs = 2000;

/** The campaign's e-mail thumbnails page by page, with the whole campaign's progress; polled while any is queued or rendering. */
export function useThumbnails(projectId: string, campaignId: string, pageSize = 20) {
  return useInfiniteQuery({
    queryKey: queryKeys.campaignThumbnails(projectId, campaignId),
    queryFn: ({ signal, pageParam }) =>
      apiRequest<ThumbnailPageJson>(`${campaignPath(projectId, campaignId)}/thumbnails?limit=${pageSize}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) => ((query.state.data?.pages[0]?.summary.pending ?? 0) > 0 ? thumbnailPollMs : false),
  });
}

/** Queues a thumbnail for every recipient without one (or whose last one failed). */
export function useQueueThumbnails(projectId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<z.infer<typeof queuedThumbnailsSchema>>(`${campaignPath(projectId, campaignId)}/thumbnails`, { method: "POST" }),
    onSettled: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.campaignThumbnails(projectId, campaignId) }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]),
  });
}
