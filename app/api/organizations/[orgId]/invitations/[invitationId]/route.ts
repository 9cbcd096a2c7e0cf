import { revokeInvitation } from "@/lib/accounts/invitations";
import { authorizeOrganization } from "@/lib/accounts/organizations";
import { withActor } from "@/lib/api/handler";

// DELETE /api/organizations/{orgId}/invitations/{invitationId} – revoke: its accept URL stops working (idempotent)
export const DELETE = withActor<{ orgId: string; invitationId: string }>(async ({ params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.manage");
  await revokeInvitation({ db, actor, access }, params.invitationId);
  return new Response(null, { status: 204 });
});
