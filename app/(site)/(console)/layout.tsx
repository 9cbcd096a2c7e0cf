import Link from "next/link";
import { redirect } from "next/navigation";
import { getConsoleUser } from "@/lib/auth/next-auth";
import { SignOutButton } from "@/components/sign-out-button";

export const dynamic = "force-dynamic";

// Every console page needs a signed-in user; pages and API handlers still check access themselves.
export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await getConsoleUser();
  if (!user) redirect("/login");
  return (
    <div>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-6 py-3">
          <Link href="/projects" className="text-lg font-semibold">
            Reelbind
          </Link>
          <div className="flex items-center gap-4 text-sm text-slate-600">
            <span>{user.email}</span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-8">{children}</main>
    </div>
  );
}
