import type { Metadata } from "next";
import { CredentialsManager } from "@/components/console/credentials/credentials-manager";
import { RoleNote } from "@/components/console/states";
import { can, minimumRole } from "@/lib/auth/permissions";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { listCredentials } from "@/lib/credentials/credentials";
import { credentialSchema } from "@/lib/credentials/contract";
import { shareSchema } from "@/lib/shares/contract";
import { listShares } from "@/lib/shares/shares";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "API credentials" };

export default async function CredentialsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const page = await requireProjectPage(projectId);
  const { access } = page;
  const heading = (
    <div>
      <h1 className="text-2xl font-semibold">API credentials</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        A key and secret your servers use (HTTP Basic) to mint embed sessions. Each share names the credential its views are attributed to.
      </p>
    </div>
  );
  if (!can(access.role, "credential.read")) {
    return (
      <section className="space-y-4">
        {heading}
        <RoleNote>
          Credentials need the {minimumRole["credential.read"]} role; you are {access.role}.
        </RoleNote>
      </section>
    );
  }
  const [credentials, shares] = await loadPageData(() => Promise.all([listCredentials(page), listShares(page)]));
  return (
    <section className="space-y-4">
      {heading}
      <CredentialsManager projectId={projectId} initialCredentials={asApiJson(credentialSchema.array(), credentials)} initialShares={asApiJson(shareSchema.array(), shares)} />
    </section>
  );
}
