import { inviteMember } from "@/lib/accounts/invitations";
import { authorizeOrganization, listOrganizationMembers } from "@/lib/accounts/organizations";
import { inviteMemberBody } from "@/lib/accounts/contract";
import { withActor } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";

// GET /api/organizations/{orgId}/members – memberships on the organization and its projects (OrganizationAdmin)
export const GET = withActor<{ orgId: string }>(async ({ params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.list");
  return json({ items: await listOrganizationMembers({ db, actor, access }) });
});

// POST /api/organizations/{orgId}/members – invite by email: a pending invitation and its accept URL, in this response only
export const POST = withActor<{ orgId: string }>(async ({ req, params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "member.manage");
  return json(await inviteMember({ db, actor, access }, await readJsonBody(req, inviteMemberBody)), 201);
});
