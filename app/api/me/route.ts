import { meSchema, profileSchema, updateProfileBody } from "@/lib/accounts/contract";
import { updateOwnProfile } from "@/lib/accounts/own-account";
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

export const PATCH = defineRoute(
  {
    path: "/api/me",
    operationId: "updateMe",
    tag: "Account",
    summary: "Change the caller's display name (console session only)",
    access: "console-session",
    body: updateProfileBody,
    responses: { 200: { description: "The caller's profile", schema: profileSchema } },
  },
  async (ctx) => json(await updateOwnProfile(ctx, ctx.body)),
);
