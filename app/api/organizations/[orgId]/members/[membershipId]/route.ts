import { changeMemberRole, removeOrganizationMember } from "@/lib/accounts/organizations";
import { changeMemberRoleBody, memberSchema } from "@/lib/accounts/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const PATCH = defineRoute(
  {
    path: "/api/organizations/{orgId}/members/{membershipId}",
    operationId: "changeMemberRole",
    tag: "Organizations",
    summary: "Change a membership's role; 409 for the organization's last OrganizationAdmin",
    access: { organization: "member.manage" },
    body: changeMemberRoleBody,
    responses: { 200: { description: "The membership", schema: memberSchema } },
    errors: { 409: "The organization's last OrganizationAdmin" },
  },
  async ({ params, actor, db, access, body }) => json(await changeMemberRole({ db, actor, access }, { membershipId: params.membershipId, ...body })),
);

export const DELETE = defineRoute(
  {
    path: "/api/organizations/{orgId}/members/{membershipId}",
    operationId: "removeMember",
    tag: "Organizations",
    summary: "Remove a membership (the user's console sessions end); 409 for the organization's last OrganizationAdmin",
    access: { organization: "member.manage" },
    responses: { 204: { description: "Removed" } },
    errors: { 409: "The organization's last OrganizationAdmin" },
  },
  async ({ params, actor, db, access }) => {
    await removeOrganizationMember({ db, actor, access }, params.membershipId);
    return new Response(null, { status: 204 });
  },
);
