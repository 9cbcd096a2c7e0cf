import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { optimisticList } from "./optimistic";
import type { createdCredentialSchema, credentialSchema } from "@/lib/credentials/contract";

// The project's API credentials through /api/credentials (ProjectManager and up).

export type CredentialJson = z.infer<typeof credentialSchema>;
type CreatedCredential = z.infer<typeof createdCredentialSchema>;

export function useCredentials(projectId: string, initialData?: CredentialJson[]) {
  return useQuery({
    queryKey: queryKeys.credentials(projectId),
    queryFn: ({ signal }) =>
      apiRequest<{ items: CredentialJson[] }>(`/api/credentials?projectId=${encodeURIComponent(projectId)}`, { signal }).then((page) => page.items),
    initialData,
  });
}

export function useCreateCredential(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name?: string }) => apiRequest<CreatedCredential>("/api/credentials", { method: "POST", json: { projectId, ...input } }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.credentials(projectId) }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]),
  });
}

export function useRevokeCredential(projectId: string) {
  const client = useQueryClient();
  const key = queryKeys.credentials(projectId);
  return useMutation({
    mutationFn: (credentialId: string) => apiRequest<CredentialJson>(`/api/credentials/${encodeURIComponent(credentialId)}/revoke`, { method: "POST" }),
    ...optimisticList<CredentialJson, string>(client, key, (credentials, credentialId) =>
      credentials.map((credential) => (credential.id === credentialId ? { ...credential, status: "revoked" as const } : credential)),
    ),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: queryKeys.audit(projectId) })]),
  });
}
