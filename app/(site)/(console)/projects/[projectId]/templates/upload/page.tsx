import type { Metadata } from "next";
import { ButtonLink } from "@/components/console/button";
import { RoleNote } from "@/components/console/states";
import { UploadForm } from "@/components/console/templates/upload-form";
import { can, minimumRole } from "@/lib/auth/permissions";
import { getConfig } from "@/lib/config";
import { requireProjectPage } from "@/lib/console/page-access";

export const metadata: Metadata = { title: "Upload a template" };

// A page rather than a dialog: the form is long on a phone, and its address can be shared.
export default async function UploadTemplatePage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { access } = await requireProjectPage(projectId);
  if (!can(access.role, "template.upload")) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold">Upload a template</h1>
        <RoleNote>
          Uploading a template needs the {minimumRole["template.upload"]} role; you are {access.role}.
        </RoleNote>
        <ButtonLink href={`/projects/${projectId}/templates`}>Back to templates</ButtonLink>
      </section>
    );
  }
  return <UploadForm projectId={projectId} uploadMode={getConfig().uploadMode} />;
}
