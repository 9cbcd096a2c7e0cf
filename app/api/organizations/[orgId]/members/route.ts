import { inviteMember } from "@/lib/accounts/invitations";
import { listOrganizationMembers } from "@/lib/accounts/organizations";
import { createdInvitationSchema, inviteMemberBody, memberSchema } from "@/lib/accounts/contract";
import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/organizations/{orgId}/members",
    operationId: "listMembers",
    tag: "Organizations",
    summary: "Memberships on the organization and on each of its projects",
    access: { organization: "member.list" },
    responses: { 200: { description: "The members", schema: listOf(memberSchema) } },
  },
  async ({ actor, db, access }) => json({ items: await listOrganizationMembers({ db, actor, access }) }),
);

export const POST = defineRoute(
  {
    path: "/api/organizations/{orgId}/members",
    operationId: "inviteMember",
    tag: "Organizations",
    summary:
      "Invite by email: a pending invitation (7 days) that grants nothing until the person accepts it at its accept URL, mailed to them when mail is configured (delivery email), else returned only here (delivery link); the same answer whether the address has an account or not; an open invitation for the same address and scope is replaced; 409 if already a member on that scope",
    access: { organization: "member.manage" },
    body: inviteMemberBody,
    responses: { 201: { description: "The invitation, status pending, and its accept URL", schema: createdInvitationSchema } },
    errors: { 409: "Already a member on that scope", 429: "Too many invitations sent by this admin in this organization", 503: "Mail is configured but the mail server did not take the message" },
  },
  async ({ actor, db, access, body }) => json(await inviteMember({ db, actor, access }, body), 201),
);
