import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { changedPasswordSchema, consoleSessionSchema, endedSessionsSchema, profileSchema } from "@/lib/accounts/contract";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";

// The account page: the caller's name and password (/api/me, /api/me/password) and console
// sessions (/api/me/sessions).

export type ProfileJson = z.infer<typeof profileSchema>;
export type ConsoleSessionJson = z.infer<typeof consoleSessionSchema>;
type Ended = z.infer<typeof endedSessionsSchema>;

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => apiRequest<ProfileJson>("/api/me", { method: "PATCH", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.me(), exact: true }),
  });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiRequest<z.infer<typeof changedPasswordSchema>>("/api/me/password", { method: "PUT", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.consoleSessions() }),
  });
}

export function useConsoleSessions(initialData?: ConsoleSessionJson[]) {
  return useQuery({
    queryKey: queryKeys.consoleSessions(),
    queryFn: ({ signal }) => apiRequest<{ items: ConsoleSessionJson[] }>("/api/me/sessions", { signal }).then((page) => page.items),
    initialData,
  });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => apiRequest<Ended>(`/api/me/sessions/${encodeURIComponent(sessionId)}`, { method: "DELETE" }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.consoleSessions() }),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Ended>("/api/me/sessions/sign-out-others", { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.consoleSessions() }),
  });
}
