import { completePasswordResetBody, passwordResetDoneSchema } from "@/lib/accounts/contract";
import { completePasswordReset } from "@/lib/accounts/password-resets";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getDb } from "@/lib/db";

export const POST = defineRoute(
  {
    path: "/api/password-resets/complete",
    operationId: "completePasswordReset",
    tag: "Account",
    summary:
      "Choose a new password with a reset link's token: the link is used up, every console session of the account ends; 404 for an unknown token, 410 when used, expired or the account is disabled",
    // The link's token in the body is the authorization.
    access: "public",
    body: completePasswordResetBody,
    responses: { 200: { description: "The password is set; sign in with it", schema: passwordResetDoneSchema } },
    errors: { 404: "No reset link has this token", 410: "Used, expired, or the account is disabled" },
  },
  async ({ body }) => json(await completePasswordReset({ db: await getDb() }, body)),
);
