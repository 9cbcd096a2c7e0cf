import { revokeInvitation } from "@/lib/accounts/invitations";
import { defineRoute } from "@/lib/api/define-route";

export const DELETE = defineRoute(
  {
    path: "/api/organizations/{orgId}/invitations/{invitationId}",
    operationId: "revokeInvitation",
    tag: "Organizations",
    summary: "Revoke an invitation: its accept URL stops working (idempotent); 409 once accepted (remove the membership instead)",
    access: { organization: "member.manage" },
    responses: { 204: { description: "Revoked" } },
    errors: { 409: "The invitation was accepted" },
  },
  async ({ params, actor, db, access }) => {
    await revokeInvitation({ db, actor, access }, params.invitationId);
    return new Response(null, { status: 204 });
  },
);
