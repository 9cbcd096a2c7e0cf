import { listInvitations } from "@/lib/accounts/invitations";
import { invitationSchema } from "@/lib/accounts/contract";
import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/organizations/{orgId}/invitations",
    operationId: "listInvitations",
    tag: "Organizations",
    summary: "The organization's invitations not yet accepted or revoked (pending, or expired), newest first",
    access: { organization: "member.list" },
    responses: { 200: { description: "The invitations", schema: listOf(invitationSchema) } },
  },
  async ({ actor, db, access }) => json({ items: await listInvitations({ db, actor, access }) }),
);
