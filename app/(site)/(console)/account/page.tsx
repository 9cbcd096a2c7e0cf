import type { Metadata } from "next";
import { AccountNav } from "@/components/console/accounts/account-nav";
import { AccountSettings } from "@/components/console/accounts/account-settings";
import { consoleSessionSchema, meSchema } from "@/lib/accounts/contract";
import { describeMe } from "@/lib/accounts/organizations";
import { listOwnSessions } from "@/lib/accounts/own-account";
import { asApiJson, requireConsoleActor } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const { actor, db } = await requireConsoleActor();
  const [me, sessions] = await loadPageData(() => Promise.all([describeMe({ db, actor }), listOwnSessions({ db, actor })]));
  const { user } = asApiJson(meSchema, me);
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="mt-1 text-sm text-slate-600">How you appear to your colleagues and how you sign in.</p>
      </div>
      <AccountNav current="/account" />
      <AccountSettings profile={user} initialSessions={asApiJson(consoleSessionSchema.array(), sessions)} />
    </section>
  );
}
