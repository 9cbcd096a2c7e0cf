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

/** The project's sections as tabs; the current one is marked for screen readers too. */
export function ProjectNav({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Project sections" className="-mb-px flex gap-1 overflow-x-auto border-b border-slate-200">
      {sections.map((section) => {
        const href = `/projects/${projectId}/${section.path}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link
            key={section.path}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`relative whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"}`}
          >
            {section.label}
            <LinkPending />
          </Link>
        );
      })}
    </nav>
  );
}
