import type { Metadata } from "next";
import { listProjectsForUser } from "@/lib/accounts/accounts";
import { getConsoleUser } from "@/lib/auth/next-auth";
import { getDb } from "@/lib/db";
import { loadPageData } from "@/lib/server/request-context";
import { redirect } from "next/navigation";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const user = await getConsoleUser();
  if (!user) redirect("/login");
  const projects = await loadPageData(async () => listProjectsForUser(await getDb(), user.id));
  return (
    <section>
      <h1 className="mb-6 text-2xl font-semibold">Projects</h1>
      {projects.length === 0 ? (
        <p className="text-slate-600">You are not a member of any project yet. An organization admin can add you.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Projects">
          {projects.map((project) => (
            <li key={project.id} className="flex items-center justify-between px-4 py-3">
              <div>
                <p className="font-medium">{project.name}</p>
                <p className="text-sm text-slate-500">{project.organizationName}</p>
              </div>
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{project.role}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
