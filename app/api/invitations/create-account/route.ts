import { createAccountFromInvitation } from "@/lib/accounts/invitations";
import { acceptedInvitationSchema, createAccountFromInvitationBody } from "@/lib/accounts/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getDb } from "@/lib/db";

export const POST = defineRoute(
  {
    path: "/api/invitations/create-account",
    operationId: "createAccountFromInvitation",
    tag: "Invitations",
    summary:
      "Accept an invitation to an address without an account by choosing its password: the account and the membership are made; 409 when the address has an account (sign in and accept instead); 410 when revoked, expired or accepted already",
    // The invitation's token in the body is the authorization.
    access: "public",
    body: createAccountFromInvitationBody,
    responses: { 201: { description: "The membership made", schema: acceptedInvitationSchema } },
    errors: { 404: "No invitation has this token", 409: "The address has an account: sign in and accept instead", 410: "Revoked, expired or accepted already" },
  },
  async ({ body }) => json(await createAccountFromInvitation({ db: await getDb() }, body), 201),
);
