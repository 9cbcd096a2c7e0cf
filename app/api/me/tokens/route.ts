import { createOwnToken, listOwnTokens } from "@/lib/accounts/personal-access-tokens";
import { createOwnTokenBody } from "@/lib/accounts/contract";
import { withActor } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";

// GET /api/me/tokens – the caller's personal access tokens (never the token itself)
export const GET = withActor(async (ctx) => json({ items: await listOwnTokens(ctx) }));

// POST /api/me/tokens – a new token for the caller; the token is in this response only
export const POST = withActor(async (ctx) => json(await createOwnToken(ctx, await readJsonBody(ctx.req, createOwnTokenBody)), 201));
