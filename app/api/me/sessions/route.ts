import { consoleSessionSchema } from "@/lib/accounts/contract";
import { listOwnSessions } from "@/lib/accounts/own-account";
import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/me/sessions",
    operationId: "listMySessions",
    tag: "Account",
    summary: "The caller's signed-in console sessions, newest first (console session only)",
    access: "console-session",
    responses: { 200: { description: "The sessions", schema: listOf(consoleSessionSchema) } },
  },
  async (ctx) => json({ items: await listOwnSessions(ctx) }),
);
