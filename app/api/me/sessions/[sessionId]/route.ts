import { endedSessionsSchema } from "@/lib/accounts/contract";
import { endOwnSession } from "@/lib/accounts/own-account";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const DELETE = defineRoute(
  {
    path: "/api/me/sessions/{sessionId}",
    operationId: "endMySession",
    tag: "Account",
    summary: "Sign one of the caller's console sessions out (console session only)",
    access: "console-session",
    responses: { 200: { description: "Signed out", schema: endedSessionsSchema } },
  },
  async (ctx) => json(await endOwnSession(ctx, { sessionId: ctx.params.sessionId })),
);
