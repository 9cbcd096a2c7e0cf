import Link from "next/link";

// The account pages' tabs: who you are and how you sign in, the second factor, and your API tokens.
const pages = [
  { href: "/account", label: "Profile and sign-in" },
  { href: "/account/security", label: "Two-factor" },
  { href: "/account/tokens", label: "Access tokens" },
] as const;

export function AccountNav({ current }: { current: (typeof pages)[number]["href"] }) {
  return (
    <nav aria-label="Account" className="flex flex-wrap gap-1 border-b border-slate-200">
      {pages.map((page) => (
        <Link
          key={page.href}
          href={page.href}
          aria-current={page.href === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm ${page.href === current ? "border-slate-900 font-medium text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900"}`}
        >
          {page.label}
        </Link>
      ))}
    </nav>
  );
}
