import type { Metadata } from "next";
import { AccountNav } from "@/components/console/accounts/account-nav";
import { TwoFactorManager } from "@/components/console/accounts/two-factor-manager";
import { describeOwnTwoFactor } from "@/lib/accounts/two-factor";
import { requireConsoleActor } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Security" };

// The one console page open to a user whom an organization's two-factor requirement holds back.
export default async function SecurityPage() {
  const { actor, db } = await requireConsoleActor({ enrolling: true });
  const state = await loadPageData(() => describeOwnTwoFactor({ db, actor }));
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Two-factor authentication</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">A code from an app on your phone, asked for after your password: a stolen password alone no longer signs anyone in as you.</p>
      </div>
      <AccountNav current="/account/security" />
      {state.requiredBy.length > 0 && !state.enabled ? (
        <p role="alert" data-testid="two-factor-required" className="max-w-2xl rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {state.requiredBy.map((organization) => organization.name).join(", ")} {state.requiredBy.length === 1 ? "requires" : "require"} two-factor authentication: set it up
          to go on using the console.
        </p>
      ) : null}
      {/* Remounted when the server says two-factor turned on or off: the codes shown once go with the old state. */}
      <TwoFactorManager key={String(state.enabled)} enabled={state.enabled} enabledAt={state.enabledAt?.toISOString() ?? null} recoveryCodesLeft={state.recoveryCodesLeft} />
    </section>
  );
}
