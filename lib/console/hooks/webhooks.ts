import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import type { deliveryPageSchema, deliverySchema, endpointSchema, savedEndpointSchema, signingSecretSchema } from "@/lib/webhooks/contract";

// The project's webhooks through /api/Projects/{projectId}/webhooks (ProjectManager and up):
// endpoints, the delivery log (pages by cursor, refreshed while anything is pending) and the
// signing secret (fetched only once the user asks to reveal it).

export type EndpointJson = z.infer<typeof endpointSchema>;
export type SavedEndpointJson = z.infer<typeof savedEndpointSchema>;
export type DeliveryJson = z.infer<typeof deliverySchema>;
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;
export type SigningSecretJson = z.infer<typeof signingSecretSchema>;
export type EndpointInput = { url: string; description: string | null; eventTypes: string[]; enabled?: boolean };

const base = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/webhooks`;

const invalidate = (client: QueryClient, projectId: string) =>
  Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.webhookEndpoints(projectId) }),
    client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries(projectId) }),
    client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
  ]);

export function useWebhookEndpoints(projectId: string, initialData?: EndpointJson[]) {
  return useQuery({
    queryKey: queryKeys.webhookEndpoints(projectId),
    queryFn: ({ signal }) => apiRequest<{ items: EndpointJson[] }>(base(projectId), { signal }).then((page) => page.items),
    initialData,
  });
}

export function useCreateEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EndpointInput) => apiRequest<SavedEndpointJson>(base(projectId), { method: "POST", json: input }),
    onSettled: () => invalidate(client, projectId),
  });
}

export function useUpdateEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: Partial<EndpointInput> & { id: string }) =>
      apiRequest<SavedEndpointJson>(`${base(projectId)}/${encodeURIComponent(id)}`, { method: "PATCH", json: input }),
    onSettled: () => invalidate(client, projectId),
  });
}

export function useDeleteEndpoint(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`${base(projectId)}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => invalidate(client, projectId),
  });
}

export function useSendTestEvent(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<DeliveryJson>(`${base(projectId)}/${encodeURIComponent(id)}/test`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries(projectId) }),
  });
}

const pageSize = 25;

export function useDeliveries(projectId: string, initialPage?: DeliveryPage) {
  return useInfiniteQuery({
    queryKey: queryKeys.webhookDeliveries(projectId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<DeliveryPage>(`${base(projectId)}/deliveries?limit=${pageSize}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: initialPage ? { pages: [initialPage], pageParams: [null] } : undefined,
    // Pending deliveries change by themselves: look again every 2 s while there are any.
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((item) => item.status === "pending")) ? 2_000 : false),
  });
}

export function useResendDelivery(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<DeliveryJson>(`${base(projectId)}/deliveries/${encodeURIComponent(id)}/resend`, { method: "POST" }),
    onSettled: () => invalidate(client, projectId),
  });
}

export function useSigningSecret(projectId: string, revealed: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookSigningSecret(projectId),
    queryFn: ({ signal }) => apiRequest<SigningSecretJson>(`${base(projectId)}/signing-secret`, { signal }),
    enabled: revealed,
    staleTime: Infinity,
  });
}

export function useRotateSigningSecret(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SigningSecretJson>(`${base(projectId)}/signing-secret/rotate`, { method: "POST" }),
    onSuccess: (secret) => client.setQueryData(queryKeys.webhookSigningSecret(projectId), secret),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.audit(projectId) }),
  });
}
