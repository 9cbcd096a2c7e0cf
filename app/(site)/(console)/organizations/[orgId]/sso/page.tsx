import type { Metadata } from "next";
import { SsoSettings } from "@/components/console/accounts/sso-settings";
import { RoleNote } from "@/components/console/states";
import { getSsoSettings } from "@/lib/accounts/sso";
import { ssoSettingsSchema } from "@/lib/accounts/sso-contract";
import { asApiJson, requireOrganizationPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Single sign-on" };

export default async function SsoPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const { actor, db, access } = await requireOrganizationPage(orgId, "sso.read");
  if (!access) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold">Single sign-on</h1>
        <RoleNote>Only an OrganizationAdmin of this organization can see and change its single sign-on.</RoleNote>
      </section>
    );
  }
  const settings = await loadPageData(() => getSsoSettings({ db, actor, access }));
  return (
    <section className="max-w-2xl space-y-6">
      <div>
        <p className="text-sm text-slate-500">{access.organization.name}</p>
        <h1 className="text-2xl font-semibold">Single sign-on</h1>
        <p className="mt-1 text-sm text-slate-600">Members sign in through your OpenID Connect identity provider; it is responsible for their second factor.</p>
      </div>
      <SsoSettings organizationId={orgId} initial={asApiJson(ssoSettingsSchema, settings)} />
    </section>
  );
}
