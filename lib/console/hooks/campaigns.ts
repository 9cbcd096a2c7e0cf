import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { campaignDetailSchema, campaignImportSchema, campaignSchema, columnTargetSchema, CreateCampaignInput, importDryRunSchema, recipientPageSchema } from "@/lib/campaigns/contract";
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

/** What a column of the file fills: a template field, the recipient's id or e-mail, or nothing. */
export type ColumnTarget = z.infer<typeof columnTargetSchema>;

/** A dry run's answer: each column's target (and how it was found), a sample, and what the import would do. */
export type DryRunJson = z.infer<typeof importDryRunSchema>;

/** Add new recipients and update those already there (by id, else e-mail), or also remove everyone the file does not have. */
export type ImportMode = "upsert" | "replace";

/** The API's fieldMap value for a target. */
export const fieldMapValue = (target: ColumnTarget) => (target.kind === "field" ? target.key : target.kind === "id" ? "$id" : target.kind === "email" ? "$email" : "$ignore");

const recipientsUrl = (projectId: string, campaignId: string, query: { dryRun?: boolean; mode?: ImportMode; fieldMap?: Record<string, string> }) => {
  const params = new URLSearchParams();
  if (query.dryRun) params.set("dryRun", "true");
  if (query.mode) params.set("mode", query.mode);
  if (query.fieldMap) params.set("fieldMap", JSON.stringify(query.fieldMap));
  const search = params.toString();
  return `${campaignPath(projectId, campaignId)}/recipients${search ? `?${search}` : ""}`;
};

/** Checks a CSV (or its first part) with a mapping: nothing is written. */
export function useDryRunRecipients(projectId: string, campaignId: string) {
  return useMutation({
    mutationFn: ({ file, fieldMap, mode }: { file: Blob; fieldMap?: Record<string, string>; mode: ImportMode }) =>
      uploadWithProgress<DryRunJson>(recipientsUrl(projectId, campaignId, { dryRun: true, mode, ...(fieldMap ? { fieldMap } : {}) }), { form: file, headers: { "Content-Type": "text/csv" } }).then(
        (response) => response.body,
      ),
  });
}

/** Sends a CSV file as it is (text/csv) with its mapping and mode, reporting how much of it went up. */
export function useUploadRecipients(projectId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, fieldMap, mode, onProgress }: { file: File; fieldMap?: Record<string, string>; mode?: ImportMode; onProgress: (progress: UploadProgress) => void }) =>
      uploadWithProgress<CampaignImportJson>(recipientsUrl(projectId, campaignId, { ...(mode ? { mode } : {}), ...(fieldMap ? { fieldMap } : {}) }), {
        form: file,
        headers: { "Content-Type": "text/csv" },
        onProgress,
      }),
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

/** Queues a thumbnail for every recipient without an up-to-date one (none, failed, or of data or a template that changed since). */
export function useQueueThumbnails(projectId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<z.infer<typeof queuedThumbnailsSchema>>(`${campaignPath(projectId, campaignId)}/thumbnails`, { method: "POST" }),
    onSettled: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.campaignThumbnails(projectId, campaignId) }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]),
  });
}

export type RecipientJson = RecipientPageJson["items"][number];

/** After a recipient changed: the list, the campaign's counts, the thumbnails and the audit log. */
function useRecipientChanged(projectId: string, campaignId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.campaignRecipients(projectId, campaignId), queryKeys.campaign(projectId, campaignId), queryKeys.campaignThumbnails(projectId, campaignId), queryKeys.audit(projectId)].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

const recipientPath = (projectId: string, campaignId: string, recipientId: string) => `${campaignPath(projectId, campaignId)}/recipients/${encodeURIComponent(recipientId)}`;

/** Changes a recipient's e-mail and data (checked as an imported row is); their link stays. */
export function useUpdateRecipient(projectId: string, campaignId: string) {
  const changed = useRecipientChanged(projectId, campaignId);
  return useMutation({
    mutationFn: ({ recipientId, email, data }: { recipientId: string; email: string | null; data: Record<string, string> }) =>
      apiRequest<RecipientJson>(recipientPath(projectId, campaignId, recipientId), { method: "PATCH", json: { email, data } }),
    onSettled: changed,
  });
}

/** Removes a recipient: their link stops working. */
export function useRemoveRecipient(projectId: string, campaignId: string) {
  const changed = useRecipientChanged(projectId, campaignId);
  return useMutation({
    mutationFn: (recipientId: string) => apiRequest<void>(recipientPath(projectId, campaignId, recipientId), { method: "DELETE" }),
    onSettled: changed,
  });
}

/** Gives a recipient a new link; the old one stops working. */
export function useRegenerateRecipientUrl(projectId: string, campaignId: string) {
  const changed = useRecipientChanged(projectId, campaignId);
  return useMutation({
    mutationFn: (recipientId: string) => apiRequest<RecipientJson>(`${recipientPath(projectId, campaignId, recipientId)}/regenerate-url`, { method: "POST" }),
    onSettled: changed,
  });
}
