import { createOwnToken, listOwnTokens } from "@/lib/accounts/personal-access-tokens";
import { createdPersonalAccessTokenSchema, createOwnTokenBody, personalAccessTokenSchema } from "@/lib/accounts/contract";
import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/me/tokens",
    operationId: "listOwnTokens",
    tag: "Account",
    summary: "The caller's personal access tokens (never the token itself)",
    access: { account: "account.read" },
    responses: { 200: { description: "The tokens", schema: listOf(personalAccessTokenSchema) } },
  },
  async (ctx) => json({ items: await listOwnTokens(ctx) }),
);

export const POST = defineRoute(
  {
    path: "/api/me/tokens",
    operationId: "createOwnToken",
    tag: "Account",
    summary: "Create a personal access token for the caller; the token is returned only here",
    access: { account: "token.write" },
    body: createOwnTokenBody,
    responses: { 201: { description: "The new token", schema: createdPersonalAccessTokenSchema } },
  },
  async (ctx) => json(await createOwnToken(ctx, ctx.body), 201),
);
