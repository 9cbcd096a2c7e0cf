import { resendInvitation } from "@/lib/accounts/invitations";
import { createdInvitationSchema } from "@/lib/accounts/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const POST = defineRoute(
  {
    path: "/api/organizations/{orgId}/invitations/{invitationId}/resend",
    operationId: "resendInvitation",
    tag: "Organizations",
    summary:
      "Send a pending or expired invitation again with a new accept URL (the old one stops working, seven days from now): mailed when mail is configured, else returned once as acceptUrl; 409 once accepted, 410 when revoked; limited per admin and organization (429)",
    access: { organization: "member.manage" },
    responses: { 200: { description: "The invitation, pending, and how its new accept URL was delivered", schema: createdInvitationSchema } },
    errors: { 409: "The invitation was accepted", 410: "The invitation was revoked", 429: "Too many invitations sent by this admin in this organization", 503: "Mail is configured but the mail server did not take the message" },
  },
  async ({ params, actor, db, access }) => json(await resendInvitation({ db, actor, access }, params.invitationId)),
);
