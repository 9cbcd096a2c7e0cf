import { ProjectNav } from "@/components/console/project-nav";
import { ProjectProvider } from "@/components/console/project-context";
import { Badge } from "@/components/console/badge";
import { requireProjectPage } from "@/lib/console/page-access";
import { ProjectSwitcher } from "@/components/console/project-switcher";
import { getOrganizationName, listProjectsForUser } from "@/lib/accounts/accounts";
import { loadPageData } from "@/lib/server/request-context";

// Every page of one project: its name, the user's role on it and the section tabs. Pages still
// authorize their own data (a layout does not run again on client navigation).
export default async function ProjectLayout({ children, params }: { children: React.ReactNode; params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { db, actor, access } = await requireProjectPage(projectId);
  const [organizationName, projects] = await loadPageData(() =>
    Promise.all([getOrganizationName(db, access.project.organizationId), listProjectsForUser(db, actor.userId)]),
  );
  const project = { ...access.project, organizationName, role: access.role };
  return (
    <ProjectProvider project={project}>
      <div className="mb-6 space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <p className="text-sm text-slate-500">{organizationName}</p>
            <p className="text-xl font-semibold">{project.name}</p>
          </div>
          <div className="flex items-center gap-2">
            {projects.length > 1 ? <ProjectSwitcher current={project.id} projects={projects} /> : null}
            <Badge tone="blue">{access.role}</Badge>
          </div>
        </div>
        <ProjectNav projectId={project.id} />
      </div>
      {children}
    </ProjectProvider>
  );
}
