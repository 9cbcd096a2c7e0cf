import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { createdPersonalAccessTokenSchema, personalAccessTokenSchema } from "@/lib/accounts/contract";
import type { TokenScope } from "@/lib/auth/token-scopes";
import { apiRequest } from "@/lib/console/api-client";
import { queryKeys } from "@/lib/console/query-keys";
import { optimisticList } from "./optimistic";

// The signed-in user's personal access tokens, through /api/me/tokens.

export type TokenJson = z.infer<typeof personalAccessTokenSchema>;
type CreatedToken = z.infer<typeof createdPersonalAccessTokenSchema>;

export function useTokens(initialData?: TokenJson[]) {
  return useQuery({
    queryKey: queryKeys.personalAccessTokens(),
    queryFn: ({ signal }) => apiRequest<{ items: TokenJson[] }>("/api/me/tokens", { signal }).then((page) => page.items),
    initialData,
  });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; scopes: TokenScope[] }) => apiRequest<CreatedToken>("/api/me/tokens", { method: "POST", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.personalAccessTokens() }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  const key = queryKeys.personalAccessTokens();
  return useMutation({
    mutationFn: (tokenId: string) => apiRequest<TokenJson>(`/api/me/tokens/${encodeURIComponent(tokenId)}/revoke`, { method: "POST" }),
    ...optimisticList<TokenJson, string>(client, key, (tokens, tokenId) => {
      // The token and every token created with it, transitively, as the server revokes them.
      const revoked = new Set([tokenId]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const token of tokens) {
          if (token.parentTokenId && revoked.has(token.parentTokenId) && !revoked.has(token.id)) {
            revoked.add(token.id);
            grew = true;
          }
        }
      }
      return tokens.map((token) => (revoked.has(token.id) ? { ...token, status: "Revoked" as const } : token));
    }),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}
