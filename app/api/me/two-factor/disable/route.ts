import { disableTwoFactor } from "@/lib/accounts/two-factor";
import { disabledTwoFactorSchema, disableTwoFactorBody } from "@/lib/accounts/two-factor-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/me/two-factor/disable",
    operationId: "disableTwoFactor",
    tag: "Account",
    summary: "Turn two-factor off, with a current or recovery code or the password; wrong ones count against the account's code limit",
    access: { account: "two-factor.write" },
    body: disableTwoFactorBody,
    rateLimited: true,
    responses: { 200: { description: "Two-factor is off; its secret and recovery codes are deleted", schema: disabledTwoFactorSchema } },
    errors: { 403: "Called with a token: two-factor is set up in the console", 409: "Two-factor is not on", 422: "The code or password is not right" },
  },
  async (ctx) => json(await disableTwoFactor(ctx, ctx.body)),
);
