import { meSchema } from "@/lib/accounts/contract";
import { describeMe } from "@/lib/accounts/organizations";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/me",
    operationId: "getMe",
    tag: "Account",
    summary: "The caller: their organizations (role null when they belong only through a project) and their projects with the effective role",
    access: { account: "account.read" },
    responses: { 200: { description: "The caller", schema: meSchema } },
  },
  async (ctx) => json(await describeMe(ctx)),
);
