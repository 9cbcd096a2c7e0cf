import { describeOwnTwoFactor } from "@/lib/accounts/two-factor";
import { twoFactorStatusSchema } from "@/lib/accounts/two-factor-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/me/two-factor",
    operationId: "getOwnTwoFactor",
    tag: "Account",
    summary: "Whether the caller's two-factor authentication is on, how many recovery codes are left, which of their organizations require it",
    access: { account: "account.read" },
    responses: { 200: { description: "The caller's two-factor state", schema: twoFactorStatusSchema } },
  },
  async (ctx) => json(await describeOwnTwoFactor(ctx)),
);
