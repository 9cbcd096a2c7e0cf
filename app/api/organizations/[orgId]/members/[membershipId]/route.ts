import { authorizeOrganization, changeMemberRole, removeOrganizationMember } from "@/lib/accounts/organizations";
import { changeMemberRoleBody } from "@/lib/accounts/contract";
import { withActor } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";

type Params = { orgId: string; membershipId: string };

// PATCH /api/organizations/{orgId}/members/{membershipId} – change the role (never the last admin's)
export const PATCH = withActor<Params>(async ({ req, params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.manage");
  return json(await changeMemberRole({ db, actor, access }, { membershipId: params.membershipId, ...(await readJsonBody(req, changeMemberRoleBody)) }));
});

// DELETE /api/organizations/{orgId}/members/{membershipId} – remove the membership (never the last admin's)
export const DELETE = withActor<Params>(async ({ params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.manage");
  await removeOrganizationMember({ db, actor, access }, params.membershipId);
  return new Response(null, { status: 204 });
});
