import type { Metadata } from "next";
import { MembersManager } from "@/components/console/accounts/members-manager";
import { RequireTwoFactorSetting } from "@/components/console/accounts/require-two-factor-setting";
import { RoleNote } from "@/components/console/states";
import { listProjectsForUser } from "@/lib/accounts/accounts";
import { listInvitations } from "@/lib/accounts/invitations";
import { organizationRequiresTwoFactor } from "@/lib/accounts/two-factor";
import { listOrganizationMembers } from "@/lib/accounts/organizations";
import { invitationSchema, memberSchema } from "@/lib/accounts/contract";
import { asApiJson, requireOrganizationPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const { actor, db, access } = await requireOrganizationPage(orgId, "member.list");
  if (!access) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold">Members</h1>
        <RoleNote>Only an OrganizationAdmin of this organization can see and manage its members.</RoleNote>
      </section>
    );
  }
  const [members, invitations, projects, requireTwoFactor] = await loadPageData(() =>
    Promise.all([
      listOrganizationMembers({ db, actor, access }),
      listInvitations({ db, actor, access }),
      listProjectsForUser(db, actor.userId),
      organizationRequiresTwoFactor(db, orgId),
    ]),
  );
  return (
    <section className="space-y-6">
      <div>
        <p className="text-sm text-slate-500">{access.organization.name}</p>
        <h1 className="text-2xl font-semibold">Members</h1>
      </div>
      <MembersManager
        organizationId={orgId}
        currentUserId={actor.userId}
        projects={projects.filter((project) => project.organizationId === orgId).map(({ id, name }) => ({ id, name }))}
        initialMembers={asApiJson(memberSchema.array(), members)}
        initialInvitations={asApiJson(invitationSchema.array(), invitations)}
      />
      <RequireTwoFactorSetting organizationId={orgId} initialRequired={requireTwoFactor} />
    </section>
  );
}
