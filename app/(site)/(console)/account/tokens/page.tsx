import type { Metadata } from "next";
import { AccountNav } from "@/components/console/accounts/account-nav";
import { TokensManager } from "@/components/console/accounts/tokens-manager";
import { listOwnTokens } from "@/lib/accounts/personal-access-tokens";
import { personalAccessTokenSchema } from "@/lib/accounts/contract";
import { tokenScopes } from "@/lib/auth/token-scopes";
import { asApiJson, requireConsoleActor } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Access tokens" };

export default async function TokensPage() {
  const { actor, db } = await requireConsoleActor();
  const tokens = asApiJson(personalAccessTokenSchema.array(), await loadPageData(() => listOwnTokens({ db, actor })));
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Personal access tokens</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          A token calls the management API as you (<code>Authorization: Bearer rbk_…</code>), with your roles, limited to its scopes. Revoke one you no
          longer use: the tokens created with it stop too.
        </p>
      </div>
      <AccountNav current="/account/tokens" />
      <TokensManager initialTokens={tokens} allScopes={tokenScopes} />
    </section>
  );
}
