import { passwordResetRequestedSchema, requestPasswordResetBody } from "@/lib/accounts/contract";
import { requestPasswordReset } from "@/lib/accounts/password-resets";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";

export const POST = defineRoute(
  {
    path: "/api/password-resets",
    operationId: "requestPasswordReset",
    tag: "Account",
    summary:
      "Ask for a password-reset link for an address: mailed when the address has an account and mail is configured (written to the server log without mail); the same 202 answer whether or not it has one; limited per address asked for and per client address (429 with Retry-After)",
    access: "public",
    body: requestPasswordResetBody,
    responses: { 202: { description: "The same answer for any address", schema: passwordResetRequestedSchema } },
    errors: { 429: "Too many requests for this address or from this client address" },
  },
  async ({ req, body }) => json(await requestPasswordReset({ db: await getDb() }, { email: body.email, address: clientAddress(req.headers) }), 202),
);
