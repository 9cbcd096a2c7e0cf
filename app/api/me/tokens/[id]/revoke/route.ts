import { revokeOwnToken } from "@/lib/accounts/personal-access-tokens";
import { withActor } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";

// POST /api/me/tokens/{id}/revoke – the token stops authenticating at once (idempotent)
export const POST = withActor<{ id: string }>(async (ctx) => json(await revokeOwnToken(ctx, ctx.params.id)));
