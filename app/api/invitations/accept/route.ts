import { acceptInvitation } from "@/lib/accounts/invitations";
import { acceptedInvitationSchema, acceptInvitationBody } from "@/lib/accounts/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/invitations/accept",
    operationId: "acceptInvitation",
    tag: "Invitations",
    summary:
      "Accept an invitation as the signed-in console user, whose email must be the invited address (a bearer token cannot accept); 410 when revoked, expired or accepted already",
    access: "signed-in",
    body: acceptInvitationBody,
    responses: { 200: { description: "The membership made", schema: acceptedInvitationSchema } },
    errors: {
      403: "A bearer token cannot accept, or the signed-in user is not the invited address; or a request from another origin",
      404: "No invitation has this token",
      410: "Revoked, expired or accepted already",
    },
  },
  async ({ actor, db, body }) => json(await acceptInvitation({ db, actor }, body)),
);
