import { createAccountFromInvitation } from "@/lib/accounts/invitations";
import { createAccountFromInvitationBody } from "@/lib/accounts/contract";
import { withPublic } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { getDb } from "@/lib/db";

// POST /api/invitations/create-account – a new address accepts its invitation by choosing a password (the token is the authorization)
export const POST = withPublic(async ({ req }) =>
  json(await createAccountFromInvitation({ db: await getDb() }, await readJsonBody(req, createAccountFromInvitationBody)), 201),
);
