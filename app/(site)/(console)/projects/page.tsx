import type { Metadata } from "next";
import { ProjectsOverview } from "@/components/console/accounts/projects-overview";
import { describeMe } from "@/lib/accounts/organizations";
import { meSchema } from "@/lib/accounts/contract";
import { asApiJson, requireConsoleActor } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const { actor, db } = await requireConsoleActor();
  const me = asApiJson(meSchema, await loadPageData(() => describeMe({ db, actor })));
  return (
    <section>
      <h1 className="mb-6 text-2xl font-semibold">Projects</h1>
      <ProjectsOverview initialMe={me} />
    </section>
  );
}
