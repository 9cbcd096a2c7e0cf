"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CreateDialogActions, ShownOnce } from "@/components/console/shown-once";
import { ConfirmDialog, Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useChangeMemberRole, useInviteMember, useMembers, useRemoveMember, type MemberJson } from "@/lib/console/hooks/organizations";
import { roles } from "@/lib/auth/permissions";
import type { Role } from "@/lib/db/schema";

type ProjectOption = { id: string; name: string };

/** The organization's members: invite, change a role, remove; never the last admin (the server says so too). */
export function MembersManager({ organizationId, currentUserId, projects, initialMembers }: { organizationId: string; currentUserId: string; projects: ProjectOption[]; initialMembers: MemberJson[] }) {
  const members = useMembers(organizationId, initialMembers);
  const changeRole = useChangeMemberRole(organizationId);
  const toast = useToast();
  const [removing, setRemoving] = useState<MemberJson | null>(null);
  const list = members.data ?? initialMembers;
  const admins = list.filter((member) => member.scope === "organization" && member.role === "OrganizationAdmin");
  const lastAdminReason = (member: MemberJson) =>
    member.scope === "organization" && member.role === "OrganizationAdmin" && admins.length <= 1 ? "The organization's last OrganizationAdmin; make someone else an admin first." : null;

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <InviteButton organizationId={organizationId} projects={projects} />
      </div>
      {members.error ? <ErrorState message={problemMessage(members.error)} retry={() => void members.refetch()} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No members">Invite someone by email.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Members">
          {list.map((member) => {
            const reason = lastAdminReason(member);
            return (
              <li key={member.id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="truncate font-medium">
                    {member.email}
                    {member.userId === currentUserId ? <span className="ml-2 text-sm font-normal text-slate-500">(you)</span> : null}
                  </p>
                  <p className="text-sm text-slate-500">
                    {member.scope === "organization" ? <Badge tone="blue">Whole organization</Badge> : <Badge>Project: {member.projectName}</Badge>}{" "}
                    <span className="ml-1">since {formatDateTime(member.createdAt)}</span>
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <label className="sr-only" htmlFor={`role-${member.id}`}>
                    Role of {member.email}
                  </label>
                  <select
                    id={`role-${member.id}`}
                    className={`${inputClass} w-auto`}
                    value={member.role}
                    disabled={Boolean(reason) || changeRole.isPending}
                    title={reason ?? undefined}
                    onChange={(event) =>
                      changeRole.mutate(
                        { membershipId: member.id, role: event.target.value as Role },
                        {
                          onSuccess: (changed) => toast.success(`${changed.email} is now ${changed.role}.`),
                          onError: (error) => toast.error(problemMessage(error)),
                        },
                      )
                    }
                  >
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                  <Button intent="ghost" disabledReason={reason} onClick={() => setRemoving(member)}>
                    Remove
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {removing ? <RemoveDialog organizationId={organizationId} member={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

function RemoveDialog({ organizationId, member, onClose }: { organizationId: string; member: MemberJson; onClose: () => void }) {
  const remove = useRemoveMember(organizationId);
  const toast = useToast();
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      danger
      title={`Remove ${member.email}?`}
      description={`They lose their ${member.role} role on ${member.scope === "organization" ? "the whole organization" : `the project ${member.projectName}`}, and their open console sessions end now.`}
      confirmLabel="Remove member"
      busy={remove.isPending}
      error={remove.error ? problemMessage(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { membershipId: member.id },
          {
            onSuccess: () => {
              toast.success(`${member.email} was removed.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

function InviteButton({ organizationId, projects }: { organizationId: string; projects: ProjectOption[] }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("Viewer");
  const [scope, setScope] = useState<string>("");
  const invite = useInviteMember(organizationId);
  const invited = invite.data;
  const toast = useToast();
  const error = invite.error instanceof ApiProblem ? invite.error : null;
  const { open, show, close } = useDialogState(() => {
    setEmail("");
    invite.reset();
  });
  const formId = `invite-${organizationId}`;
  return (
    <>
      <Button intent="primary" onClick={show}>
        Invite member
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={invited ? "Member added" : "Invite a member"}
        description={invited ? null : "A new email gets an account with a one-time password you hand over; an existing user is added."}
        actions={<CreateDialogActions done={Boolean(invited)} doneLabel="Done" onClose={close} formId={formId} submitLabel="Invite" busy={invite.isPending} />}
      >
        {invited ? (
          <div className="space-y-3 text-sm">
            <p>
              <strong>{invited.member.email}</strong> is now {invited.member.role} on{" "}
              {invited.member.scope === "organization" ? "the whole organization" : `the project ${invited.member.projectName}`}.
            </p>
            {invited.oneTimePassword ? (
              <ShownOnce title="One-time password — shown only now" value={invited.oneTimePassword} testId="one-time-password">
                Give it to them over a safe channel; it will not be shown again.
              </ShownOnce>
            ) : (
              <p>They already had an account and sign in with their own password.</p>
            )}
          </div>
        ) : (
          <form
            id={formId}
            noValidate
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              invite.mutate(
                { email, role, ...(scope ? { projectId: scope } : {}) },
                {
                  onSuccess: (result) => toast.success(`${result.member.email} was added.`),
                },
              );
            }}
          >
            <Field label="Email" error={error?.fieldError("email") ?? (error && !error.errors.length ? error.message : null)}>
              {(control) => <input {...control} type="email" autoComplete="off" className={inputClass} value={email} required onChange={(event) => setEmail(event.target.value)} />}
            </Field>
            <Field label="Role" error={error?.fieldError("role")}>
              {(control) => (
                <select {...control} className={inputClass} value={role} onChange={(event) => setRole(event.target.value as Role)}>
                  {roles.map((option) => (
                    <option key={option}>{option}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="On" hint="An organization role applies to every project in it." error={error?.fieldError("projectId")}>
              {(control) => (
                <select {...control} className={inputClass} value={scope} onChange={(event) => setScope(event.target.value)}>
                  <option value="">The whole organization</option>
                  {projects.map((project) => (
                    <option key={project.id} value={project.id}>
                      Project: {project.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {invite.error && !error ? <p role="alert" className="text-sm text-red-700">{problemMessage(invite.error)}</p> : null}
          </form>
        )}
      </Dialog>
    </>
  );
}
