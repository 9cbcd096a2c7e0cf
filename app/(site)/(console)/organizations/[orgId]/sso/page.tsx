import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SsoSettings } from "@/components/console/accounts/sso-settings";
import { RoleNote } from "@/components/console/states";
import { authorizeOrganization } from "@/lib/accounts/organizations";
import { getSsoSettings } from "@/lib/accounts/sso";
import { ssoSettingsSchema } from "@/lib/accounts/sso-contract";
import { isAppError } from "@/lib/errors";
import { asApiJson, requireConsoleActor } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Single sign-on" };

export default async function SsoPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const { actor, db } = await requireConsoleActor();
  const access = await loadPageData(() => authorizeOrganization(db, actor, orgId, "sso.read")).catch((error: unknown) => {
    if (isAppError(error, "not_found")) notFound();
    if (isAppError(error, "forbidden")) return null;
    throw error;
  });
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
