"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { LinkPending } from "./link-pending";

const sections = [
  { path: "templates", label: "Templates" },
  { path: "shares", label: "Shares" },
  { path: "campaigns", label: "Campaigns" },
  { path: "analytics", label: "Analytics" },
  { path: "credentials", label: "API credentials" },
  { path: "webhooks", label: "Webhooks" },
  { path: "audit", label: "Audit log" },
] as const;

/**
 * The project's sections as tabs; the current one is marked for screen readers too. Below the lg
 * breakpoint they wrap as chips instead, so every section is on screen at phone width (a row that
 * scrolls sideways hid API credentials, Webhooks and Audit log with no sign they were there).
 */
export function ProjectNav({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Project sections" className="flex flex-wrap gap-1.5 lg:-mb-px lg:flex-nowrap lg:gap-1 lg:border-b lg:border-slate-200">
      {sections.map((section) => {
        const href = `/projects/${projectId}/${section.path}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link
            key={section.path}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`relative whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600 lg:rounded-none lg:border-b-2 lg:py-2 lg:ring-0 ${current ? "bg-indigo-50 text-indigo-700 ring-indigo-200 lg:border-indigo-600 lg:bg-transparent" : "bg-white text-slate-600 ring-slate-200 hover:text-slate-900 lg:border-transparent lg:bg-transparent lg:hover:border-slate-300"}`}
          >
            {section.label}
            <LinkPending />
          </Link>
        );
      })}
    </nav>
  );
}
