"use client";

import { createContext, useContext } from "react";
import { can, minimumRole, type Action } from "@/lib/auth/permissions";
import type { Role } from "@/lib/db/schema";

// The project a console page is about and the signed-in user's role on it, for client
// components to hide or disable what the role cannot do (the API refuses it anyway).

export type ConsoleProject = { id: string; name: string; organizationId: string; organizationName: string; role: Role };

const ProjectContext = createContext<ConsoleProject | null>(null);

export function ProjectProvider({ project, children }: { project: ConsoleProject; children: React.ReactNode }) {
  return <ProjectContext.Provider value={project}>{children}</ProjectContext.Provider>;
}

export function useProject() {
  const project = useContext(ProjectContext);
  if (!project) throw new Error("useProject needs the project layout's ProjectProvider.");
  return {
    project,
    can: (action: Action) => can(project.role, action),
    /** Why the role cannot do the action, or null when it can: for disabledReason. */
    roleReason: (action: Action) => (can(project.role, action) ? null : `Needs the ${minimumRole[action]} role; you are ${project.role}.`),
  };
}
