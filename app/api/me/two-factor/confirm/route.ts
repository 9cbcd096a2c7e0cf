import { confirmTwoFactorEnrolment } from "@/lib/accounts/two-factor";
import { confirmedTwoFactorSchema, confirmTwoFactorBody } from "@/lib/accounts/two-factor-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/me/two-factor/confirm",
    operationId: "confirmTwoFactorEnrolment",
    tag: "Account",
    summary: "Turn two-factor on with a code from the authenticator app; answers the 10 recovery codes, in this response only",
    access: { account: "two-factor.write" },
    body: confirmTwoFactorBody,
    rateLimited: true,
    responses: { 200: { description: "Two-factor is on", schema: confirmedTwoFactorSchema } },
    errors: { 403: "Called with a token: two-factor is set up in the console", 409: "No enrolment started, or two-factor already on", 422: "The code is not the app's current one" },
  },
  async (ctx) => json(await confirmTwoFactorEnrolment(ctx, { code: ctx.body.code })),
);
