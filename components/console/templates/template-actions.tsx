"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/console/button";
import { ConfirmMutationDialog } from "@/components/console/dialog";
import { ScheduleGoLive } from "./schedule-go-live";
import { useProject } from "@/components/console/project-context";
import { useToast } from "@/components/console/toast";
import { formatDateTime } from "@/lib/console/format";
import { useArchiveTemplate, useCancelScheduledDeploy, useDeleteTemplate, useDeployTemplate } from "@/lib/console/hooks/templates";
import { archiveBlocker, deleteBlocker, deployBlocker, type TemplateJson } from "@/lib/console/templates/template-rules";

type Pending = "deploy" | "schedule" | "cancel-schedule" | "archive" | "delete" | null;

/**
 * Deploy (or, for a Previous template, roll back to it), schedule that go-live, archive and
 * delete, each behind a confirmation that names what changes, each disabled with its reason when
 * the role or the template's lifecycle forbids it (the API refuses those anyway).
 */
export function TemplateActions({ projectId, template, production }: { projectId: string; template: TemplateJson; production: TemplateJson | null }) {
  const { roleReason } = useProject();
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState<Pending>(null);
  const deploy = useDeployTemplate(projectId);
  const cancelSchedule = useCancelScheduledDeploy(projectId);
  const archive = useArchiveTemplate(projectId);
  const remove = useDeleteTemplate(projectId);
  const label = `${template.name} ${template.version}`;
  const rollback = template.status === "Previous";
  const productionLabel = production ? `${production.name} ${production.version}` : null;

  const reasons = {
    deploy: roleReason("template.deploy") ?? deployBlocker(template),
    archive: roleReason("template.archive") ?? archiveBlocker(template),
    delete: roleReason("template.delete") ?? deleteBlocker(template),
  };
  const close = () => {
    setPending(null);
    deploy.reset();
    cancelSchedule.reset();
    archive.reset();
    remove.reset();
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button intent="primary" disabledReason={reasons.deploy} onClick={() => setPending("deploy")}>
          {rollback ? "Roll back to this version" : "Deploy to Production"}
        </Button>
        <Button disabledReason={reasons.deploy} onClick={() => setPending("schedule")}>
          {template.scheduledDeployAt ? "Reschedule go-live" : "Schedule go-live"}
        </Button>
        <Button disabledReason={reasons.archive} onClick={() => setPending("archive")}>
          Archive
        </Button>
        <Button intent="danger" disabledReason={reasons.delete} onClick={() => setPending("delete")}>
          Delete
        </Button>
      </div>
      {template.scheduledDeployAt ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900 ring-1 ring-blue-200" data-testid="scheduled-go-live">
          <span>
            Scheduled to go live on <time dateTime={template.scheduledDeployAt}>{formatDateTime(template.scheduledDeployAt)}</time>.
          </span>
          <Button disabledReason={roleReason("template.deploy")} onClick={() => setPending("cancel-schedule")}>
            Cancel go-live
          </Button>
        </div>
      ) : null}
      {/* The same reasons, visible where no tooltip shows (a phone); each button already carries its own for screen readers. */}
      <ul aria-hidden className="space-y-0.5 text-xs text-slate-500">
        {(["deploy", "archive", "delete"] as const).flatMap((action) =>
          reasons[action] ? [<li key={action}>{`${action[0]!.toUpperCase()}${action.slice(1)}: ${reasons[action]}`}</li>] : [],
        )}
      </ul>

      <ConfirmMutationDialog
        open={pending === "deploy"}
        onClose={close}
        title={rollback ? `Roll back to ${label}?` : `Deploy ${label} to Production?`}
        description={
          productionLabel ? (
            <>
              The PROD share will play <strong>{label}</strong>
              {rollback ? " again" : ""}, at once. <strong>{productionLabel}</strong>, in Production now, becomes Previous.
            </>
          ) : (
            <>No template is in Production yet: the PROD share starts playing {label}.</>
          )
        }
        confirmLabel={rollback ? "Roll back" : "Deploy"}
        mutation={deploy}
        variables={template.id}
        onDone={() => {
          toast.success(rollback ? `Rolled back: ${label} is in Production again.` : `${label} is now in Production.`);
          setPending(null);
        }}
      />
      {pending === "schedule" ? (
        <ScheduleGoLive
          projectId={projectId}
          template={template}
          productionLabel={productionLabel}
          onClose={close}
          onDone={(at) => {
            toast.success(`${label} goes live on ${formatDateTime(at)}.`);
            setPending(null);
          }}
        />
      ) : null}
      <ConfirmMutationDialog
        open={pending === "cancel-schedule"}
        onClose={close}
        title={`Cancel the go-live of ${label}?`}
        description={template.scheduledDeployAt ? `It was scheduled for ${formatDateTime(template.scheduledDeployAt)}; ${label} stays ${template.status}.` : ""}
        confirmLabel="Cancel go-live"
        mutation={cancelSchedule}
        variables={template.id}
        onDone={() => {
          toast.success(`The go-live of ${label} is cancelled.`);
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
