import { personalAccessTokenSchema } from "@/lib/accounts/contract";
import { revokeOwnToken } from "@/lib/accounts/personal-access-tokens";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/me/tokens/{id}/revoke",
    operationId: "revokeOwnToken",
    tag: "Account",
    summary: "Revoke one of the caller's tokens (idempotent); it stops authenticating at once",
    access: { account: "token.write" },
    responses: { 200: { description: "The revoked token", schema: personalAccessTokenSchema } },
  },
  async (ctx) => json(await revokeOwnToken(ctx, ctx.params.id)),
);
