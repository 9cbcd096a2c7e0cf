import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { uploadDirect } from "@/lib/console/templates/direct-upload";
import { withDeployed, type PreviewResult, type TemplateJson, type UploadedTemplateJson } from "@/lib/console/templates/template-rules";
import { buildUploadForm, type UploadDraft } from "@/lib/console/templates/upload-draft";
import { uploadWithProgress, type UploadProgress } from "@/lib/console/upload-request";
import { optimisticList } from "./optimistic";

// The templates resource for the console's client components: reads and every change go through
// the REST API (the session cookie authenticates it); server components hand the first data in.
// A change invalidates the project's templates (the list and each template, one key prefix) and
// its audit log, which every change writes to.

const templatesPath = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/templates`;
const templatePath = (projectId: string, templateId: string) => `${templatesPath(projectId)}/${encodeURIComponent(templateId)}`;

export function useTemplates(projectId: string, initialData?: TemplateJson[]) {
  return useQuery({
    queryKey: queryKeys.templates(projectId),
    queryFn: ({ signal }) => apiRequest<{ items: TemplateJson[] }>(templatesPath(projectId), { signal }).then((page) => page.items),
    initialData,
  });
}

export function useTemplate(projectId: string, templateId: string, initialData?: TemplateJson) {
  return useQuery({
    queryKey: queryKeys.template(projectId, templateId),
    queryFn: ({ signal }) => apiRequest<TemplateJson>(templatePath(projectId, templateId), { signal }),
    initialData,
  });
}

function refreshAfterChange(client: QueryClient, projectId: string) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.templates(projectId) }),
    client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
  ]);
}

type Snapshot = { list?: TemplateJson[]; one?: TemplateJson };

/** Shows the change at once in the list and the template's own entry; returns what to restore if the API refuses. */
async function applyOptimistically(client: QueryClient, projectId: string, templateId: string, change: (list: TemplateJson[]) => TemplateJson[]): Promise<Snapshot> {
  const listKey = queryKeys.templates(projectId);
  const oneKey = queryKeys.template(projectId, templateId);
  await client.cancelQueries({ queryKey: listKey });
  const snapshot: Snapshot = { list: client.getQueryData(listKey), one: client.getQueryData(oneKey) };
  if (snapshot.list) client.setQueryData(listKey, change(snapshot.list));
  if (snapshot.one) {
    const changed = change([snapshot.one]).find((template) => template.id === templateId);
    client.setQueryData(oneKey, changed);
  }
  return snapshot;
}

function restore(client: QueryClient, projectId: string, templateId: string, snapshot: Snapshot | undefined) {
  if (snapshot?.list) client.setQueryData(queryKeys.templates(projectId), snapshot.list);
  if (snapshot?.one) client.setQueryData(queryKeys.template(projectId, templateId), snapshot.one);
}

/** A lifecycle change (POST …/deploy or …/archive) shown before the API answers, rolled back if it refuses. */
function useLifecycleChange(projectId: string, verb: "deploy" | "archive", change: (list: TemplateJson[], templateId: string) => TemplateJson[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => apiRequest<TemplateJson>(`${templatePath(projectId, templateId)}/${verb}`, { method: "POST" }),
    onMutate: (templateId) => applyOptimistically(client, projectId, templateId, (list) => change(list, templateId)),
    onError: (_error, templateId, snapshot) => restore(client, projectId, templateId, snapshot),
    onSuccess: (template) => client.setQueryData(queryKeys.template(projectId, template.id), template),
    onSettled: () => refreshAfterChange(client, projectId),
  });
}

/** POST …/deploy: Testing (a deploy) or Previous (a rollback) → Production, and the current Production template → Previous. */
export function useDeployTemplate(projectId: string) {
  return useLifecycleChange(projectId, "deploy", (list, templateId) => withDeployed(list, templateId, new Date().toISOString()));
}

/** POST …/deploy with `at`: the go-live is scheduled (the status stays until then). */
export function useScheduleDeploy(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, at }: { templateId: string; at: string }) => apiRequest<TemplateJson>(`${templatePath(projectId, templateId)}/deploy`, { method: "POST", json: { at } }),
    onSuccess: (template) => client.setQueryData(queryKeys.template(projectId, template.id), template),
    onSettled: () => refreshAfterChange(client, projectId),
  });
}

/** DELETE …/scheduled-deploy: the scheduled go-live is cancelled. */
export function useCancelScheduledDeploy(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => apiRequest<TemplateJson>(`${templatePath(projectId, templateId)}/scheduled-deploy`, { method: "DELETE" }),
    onSuccess: (template) => client.setQueryData(queryKeys.template(projectId, template.id), template),
    onSettled: () => refreshAfterChange(client, projectId),
  });
}

/** POST …/archive: Testing or Previous → Archived. */
export function useArchiveTemplate(projectId: string) {
  return useLifecycleChange(projectId, "archive", (list, templateId) =>
    list.map((template) => (template.id === templateId ? { ...template, status: "Archived", archivedAt: new Date().toISOString() } : template)),
  );
}

/** DELETE the template (never Production): gone from the list at once, back if the API refuses. */
export function useDeleteTemplate(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => apiRequest<void>(templatePath(projectId, templateId), { method: "DELETE" }),
    ...optimisticList<TemplateJson, string>(client, queryKeys.templates(projectId), (list, templateId) => list.filter((template) => template.id !== templateId)),
    // The deleted template's own entry is dropped, not refetched (that would be a 404 on the page leaving it).
    onSuccess: (_result, templateId) => client.removeQueries({ queryKey: queryKeys.template(projectId, templateId), exact: true }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.templates(projectId), exact: true }),
        client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
      ]),
  });
}

/** POST …/preview: a PNG of the template with the data applied, behind a signed URL (15 minutes). Changes nothing. */
export function usePreviewTemplate(projectId: string, templateId: string) {
  return useMutation({
    mutationFn: (data: Record<string, string>) => apiRequest<PreviewResult>(`${templatePath(projectId, templateId)}/preview`, { method: "POST", json: { data } }),
  });
}

/** How the console sends a template's files (docs/direct-uploads.md): one request to the app, or an upload session. */
export type UploadMode = "server" | "direct" | "uploadthing";

export type UploadVariables = {
  draft: UploadDraft;
  /** The same key for every retry of one submission: the server then creates the template (or the upload session) once. */
  idempotencyKey: string;
  onProgress: (progress: UploadProgress) => void;
  /** Called when an upload session of the same draft is picked up where it stopped (direct modes). */
  onResume?: () => void;
  signal: AbortSignal;
};

/**
 * Uploads the draft with progress, by `mode`: POST …/templates/upload, or an upload session
 * whose parts go straight to storage; the new template goes into the cache for its detail page.
 */
export function useUploadTemplate(projectId: string, mode: UploadMode) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ draft, idempotencyKey, onProgress, onResume, signal }: UploadVariables) =>
      mode === "server"
        ? uploadWithProgress<UploadedTemplateJson>(`${templatesPath(projectId)}/upload`, { form: buildUploadForm(draft), headers: { "Idempotency-Key": idempotencyKey }, onProgress, signal })
        : uploadDirect({ projectId, draft, idempotencyKey, onProgress, onResume, signal }),
    onSuccess: ({ body: { warnings: _warnings, ...template } }) => {
      client.setQueryData(queryKeys.template(projectId, template.id), template);
      // Not awaited: the form moves on to the new template while the list refreshes.
      void refreshAfterChange(client, projectId);
    },
  });
}
