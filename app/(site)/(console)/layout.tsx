import Link from "next/link";
import { ConsoleProviders } from "@/components/console/query-provider";
import { LinkPending } from "@/components/console/link-pending";
import { SignOutButton } from "@/components/sign-out-button";
import { requireConsoleActor } from "@/lib/console/page-access";

// Every console page needs a signed-in user; pages and API handlers still check access themselves.
export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  // Each page holds back a user who must enrol in two-factor first; the layout frames the enrolment page too.
  const { actor } = await requireConsoleActor({ enrolling: true });
  return (
    <ConsoleProviders>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <nav aria-label="Console" className="flex items-center gap-4 text-sm">
            <Link href="/projects" className="text-lg font-semibold text-slate-900">
              Reelbind
            </Link>
            <Link href="/projects" className="relative pr-3 text-slate-600 hover:text-slate-900">
              Projects
              <LinkPending />
            </Link>
          </nav>
          <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
            <Link href="/account" className="relative truncate pr-3 hover:text-slate-900" title="Your account: name, password, sessions and access tokens">
              {actor.email}
              <LinkPending />
            </Link>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </ConsoleProviders>
  );
}
