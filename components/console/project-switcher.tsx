"use client";

import { useRouter } from "next/navigation";

type Option = { id: string; name: string; organizationName: string };

/** Jumps to another project the user can open, grouped by organization. */
export function ProjectSwitcher({ current, projects }: { current: string; projects: Option[] }) {
  const router = useRouter();
  const organizations = [...new Set(projects.map((project) => project.organizationName))];
  return (
    <div>
      <label htmlFor="project-switcher" className="sr-only">
        Switch project
      </label>
      <select
        id="project-switcher"
        value={current}
        onChange={(event) => router.push(`/projects/${event.target.value}`)}
        className="rounded-md border-0 bg-white py-1.5 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
      >
        {organizations.map((organization) => (
          <optgroup key={organization} label={organization}>
            {projects
              .filter((project) => project.organizationName === organization)
              .map((project) => (
                <option key={project.id} value={project.id}>
                  {project.name}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
