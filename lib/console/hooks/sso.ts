import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { SsoSettingsBody, ssoSettingsSchema } from "@/lib/accounts/sso-contract";
import { apiRequest } from "@/lib/console/api-client";

// The organization's single sign-on settings for the console (GET/PUT/DELETE …/sso).

export type SsoSettingsJson = z.infer<typeof ssoSettingsSchema>;

const ssoPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/sso`;
const ssoKey = (organizationId: string) => ["organizations", organizationId, "sso"] as const;

export function useSsoSettings(organizationId: string, initialData?: SsoSettingsJson) {
  return useQuery({ queryKey: ssoKey(organizationId), queryFn: ({ signal }) => apiRequest<SsoSettingsJson>(ssoPath(organizationId), { signal }), initialData });
}

export function useSaveSsoSettings(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<SsoSettingsBody>) => apiRequest<SsoSettingsJson>(ssoPath(organizationId), { method: "PUT", json: input }),
    onSuccess: (saved) => client.setQueryData(ssoKey(organizationId), saved),
  });
}

export function useDeleteSsoSettings(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>(ssoPath(organizationId), { method: "DELETE" }),
    onSettled: () => client.invalidateQueries({ queryKey: ssoKey(organizationId) }),
  });
}
