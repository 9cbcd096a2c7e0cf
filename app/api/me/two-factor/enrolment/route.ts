import { startTwoFactorEnrolment } from "@/lib/accounts/two-factor";
import { twoFactorEnrolmentSchema } from "@/lib/accounts/two-factor-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/me/two-factor/enrolment",
    operationId: "startTwoFactorEnrolment",
    tag: "Account",
    summary: "Start setting up two-factor: a new TOTP secret (pending until confirmed), its otpauth:// URI and QR code; console sessions only",
    access: { account: "two-factor.write" },
    responses: { 201: { description: "The secret to put in an authenticator app", schema: twoFactorEnrolmentSchema } },
    errors: { 403: "Called with a token: two-factor is set up in the console", 409: "Two-factor is already on" },
  },
  async (ctx) => json(await startTwoFactorEnrolment(ctx), 201),
);
