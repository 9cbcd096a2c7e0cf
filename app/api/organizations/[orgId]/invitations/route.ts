import { listInvitations } from "@/lib/accounts/invitations";
import { authorizeOrganization } from "@/lib/accounts/organizations";
import { withActor } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";

// GET /api/organizations/{orgId}/invitations – invitations not yet accepted or revoked (OrganizationAdmin)
export const GET = withActor<{ orgId: string }>(async ({ params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.list");
  return json({ items: await listInvitations({ db, actor, access }) });
});
