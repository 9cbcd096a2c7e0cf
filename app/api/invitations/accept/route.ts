import { acceptInvitation } from "@/lib/accounts/invitations";
import { acceptInvitationBody } from "@/lib/accounts/contract";
import { withActor } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";

// POST /api/invitations/accept – the signed-in console user accepts an invitation to their address
export const POST = withActor(async ({ req, actor, db }) => json(await acceptInvitation({ db, actor }, await readJsonBody(req, acceptInvitationBody))));
