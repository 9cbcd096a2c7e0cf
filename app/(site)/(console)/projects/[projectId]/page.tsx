import { redirect } from "next/navigation";
import { requireProjectPage } from "@/lib/console/page-access";

// A project opens on its shares; a project the user cannot see is the 404 page, not a redirect to one.
export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requireProjectPage(projectId);
  redirect(`/projects/${projectId}/shares`);
}
