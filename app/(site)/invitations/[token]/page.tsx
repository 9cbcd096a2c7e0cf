import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { InvitationResponse } from "@/components/invitations/invitation-response";
import { findInvitationByToken } from "@/lib/accounts/invitations";
import { getConsoleUser } from "@/lib/auth/next-auth";
import { getDb } from "@/lib/db";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Invitation", robots: { index: false } };

type Props = { params: Promise<{ token: string }> };

const closedReasons = {
  accepted: "This invitation has been accepted already. Sign in to open the organization.",
  revoked: "This invitation was revoked. Ask the organization's admin for a new one.",
  expired: "This invitation has expired. Ask the organization's admin for a new one.",
} as const;

// The accept URL an admin hands over: outside the console, so that someone without an account
// can open it. It shows the same to everyone who holds it whether the address has an account or
// not; the signed-in invited user accepts, anyone else chooses a password or signs in.
export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  const [invitation, user] = await loadPageData(async () => Promise.all([findInvitationByToken(await getDb(), token), getConsoleUser()]));
  if (!invitation) notFound();
  const where = invitation.scope === "organization" ? `the organization ${invitation.organizationName}` : `the project ${invitation.projectName} of ${invitation.organizationName}`;
  return (
    <main className="mx-auto mt-16 max-w-md space-y-6 rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Join {invitation.organizationName} on Reelbind</h1>
        <p className="text-sm text-slate-600">
          <strong>{invitation.email}</strong> is invited as {invitation.role} on {where}.
        </p>
      </div>
      {invitation.status === "pending" ? (
        <InvitationResponse token={token} invitedEmail={invitation.email} signedInEmail={user?.email ?? null} />
      ) : (
        <p role="alert" className="text-sm text-red-700">
          {closedReasons[invitation.status]}
        </p>
      )}
    </main>
  );
}
