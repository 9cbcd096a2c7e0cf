"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/console/button";
import { ConfirmMutationDialog } from "@/components/console/dialog";
import { useProject } from "@/components/console/project-context";
import { useToast } from "@/components/console/toast";
import { useArchiveTemplate, useDeleteTemplate, useDeployTemplate } from "@/lib/console/hooks/templates";
import { archiveBlocker, deleteBlocker, deployBlocker, type TemplateJson } from "@/lib/console/templates/template-rules";

type Pending = "deploy" | "archive" | "delete" | null;

/**
 * Deploy, archive and delete, each behind a confirmation, each disabled with its reason when the
 * role or the template's lifecycle forbids it (the API refuses those anyway).
 */
export function TemplateActions({ projectId, template, production }: { projectId: string; template: TemplateJson; production: TemplateJson | null }) {
  const { roleReason } = useProject();
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState<Pending>(null);
  const deploy = useDeployTemplate(projectId);
  const archive = useArchiveTemplate(projectId);
  const remove = useDeleteTemplate(projectId);
  const label = `${template.name} ${template.version}`;

  const reasons = {
    deploy: roleReason("template.deploy") ?? deployBlocker(template),
    archive: roleReason("template.archive") ?? archiveBlocker(template),
    delete: roleReason("template.delete") ?? deleteBlocker(template),
  };
  const close = () => {
    setPending(null);
    deploy.reset();
    archive.reset();
    remove.reset();
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button intent="primary" disabledReason={reasons.deploy} onClick={() => setPending("deploy")}>
          Deploy to Production
        </Button>
        <Button disabledReason={reasons.archive} onClick={() => setPending("archive")}>
          Archive
        </Button>
        <Button intent="danger" disabledReason={reasons.delete} onClick={() => setPending("delete")}>
          Delete
        </Button>
      </div>
      {/* The same reasons, visible where no tooltip shows (a phone); each button already carries its own for screen readers. */}
      <ul aria-hidden className="space-y-0.5 text-xs text-slate-500">
        {(["deploy", "archive", "delete"] as const).flatMap((action) =>
          reasons[action] ? [<li key={action}>{`${action[0]!.toUpperCase()}${action.slice(1)}: ${reasons[action]}`}</li>] : [],
        )}
      </ul>

      <ConfirmMutationDialog
        open={pending === "deploy"}
        onClose={close}
        title={`Deploy ${label} to Production?`}
        description={
          production ? (
            <>
              The PROD share will play <strong>{label}</strong>. <strong>{`${production.name} ${production.version}`}</strong>, in Production now, becomes Previous.
            </>
          ) : (
            <>No template is in Production yet: the PROD share starts playing {label}.</>
          )
        }
        confirmLabel="Deploy"
        mutation={deploy}
        variables={template.id}
        onDone={() => {
          toast.success(`${label} is now in Production.`);
          setPending(null);
        }}
      />
      <ConfirmMutationDialog
        open={pending === "archive"}
        onClose={close}
        title={`Archive ${label}?`}
        description="No share plays an archived template, and it cannot be deployed again; it stays listed for reference."
        confirmLabel="Archive"
        mutation={archive}
        variables={template.id}
        onDone={() => {
          toast.success(`${label} is archived.`);
          setPending(null);
        }}
      />
      <ConfirmMutationDialog
        open={pending === "delete"}
        onClose={close}
        title={`Delete ${label}?`}
        description="The template and its files are removed for good."
        confirmLabel="Delete"
        danger
        mutation={remove}
        variables={template.id}
        onDone={() => {
          toast.success(`${label} was deleted.`);
          router.push(`/projects/${projectId}/templates`);
        }}
      />
    </div>
  );
}
