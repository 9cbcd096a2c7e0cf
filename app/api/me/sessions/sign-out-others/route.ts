import { endedSessionsSchema } from "@/lib/accounts/contract";
import { endOtherSessions } from "@/lib/accounts/own-account";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/me/sessions/sign-out-others",
    operationId: "endMyOtherSessions",
    tag: "Account",
    summary: "Sign out every console session of the caller but this one (console session only)",
    access: "console-session",
    responses: { 200: { description: "How many were signed out", schema: endedSessionsSchema } },
  },
  async (ctx) => json(await endOtherSessions(ctx)),
);
