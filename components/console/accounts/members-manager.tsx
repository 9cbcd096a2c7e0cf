"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CreateDialogActions, ShownOnce } from "@/components/console/shown-once";
import { ConfirmDialog, ConfirmMutationDialog, Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import {
  useChangeMemberRole,
  useInvitations,
  useInviteMember,
  useMembers,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  type CreatedInvitationJson,
  type InvitationJson,
  type MemberJson,
} from "@/lib/console/hooks/organizations";
import { roles } from "@/lib/auth/permissions";
import type { Role } from "@/lib/db/schema";

type ProjectOption = { id: string; name: string };

type MembersManagerProps = { organizationId: string; currentUserId: string; projects: ProjectOption[]; initialMembers: MemberJson[]; initialInvitations: InvitationJson[] };

const scopeBadge = (item: { scope: "organization" | "project"; projectName: string | null }) =>
  item.scope === "organization" ? <Badge tone="blue">Whole organization</Badge> : <Badge>Project: {item.projectName}</Badge>;

/** The organization's members: invite, change a role, remove; never the last admin (the server says so too). Pending invitations below. */
export function MembersManager({ organizationId, currentUserId, projects, initialMembers, initialInvitations }: MembersManagerProps) {
  const members = useMembers(organizationId, initialMembers);
  const changeRole = useChangeMemberRole(organizationId);
  const [removing, setRemoving] = useState<MemberJson | null>(null);
  // A role picked in a row's select waits here for confirmation; the select keeps showing the current role.
  const [roleChange, setRoleChange] = useState<{ member: MemberJson; role: Role } | null>(null);
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
                    {scopeBadge(member)}{" "}
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
                    onChange={(event) => setRoleChange({ member, role: event.target.value as Role })}
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
      {roleChange ? <ChangeRoleDialog {...roleChange} mutation={changeRole} onClose={() => setRoleChange(null)} /> : null}
      <PendingInvitations organizationId={organizationId} initialInvitations={initialInvitations} />
    </div>
  );
}

/** "Make x@… an Editor?": a role changes only once confirmed, never the moment the select changes. */
function ChangeRoleDialog({ member, role, mutation, onClose }: { member: MemberJson; role: Role; mutation: ReturnType<typeof useChangeMemberRole>; onClose: () => void }) {
  const toast = useToast();
  const on = member.scope === "organization" ? "the whole organization" : `the project ${member.projectName}`;
  return (
    <ConfirmMutationDialog
      open
      onClose={() => {
        mutation.reset();
        onClose();
      }}
      title={`Make ${member.email} ${role}?`}
      description={`Their role on ${on} changes from ${member.role} to ${role}, from their next request on.`}
      confirmLabel="Change role"
      mutation={mutation}
      variables={{ membershipId: member.id, role }}
      onDone={() => {
        toast.success(`${member.email} is now ${role}.`);
        mutation.reset();
        onClose();
      }}
    />
  );
}

/** Invitations nobody has accepted yet: they grant nothing until then; the admin may send one again or revoke it. */
function PendingInvitations({ organizationId, initialInvitations }: { organizationId: string; initialInvitations: InvitationJson[] }) {
  const invitations = useInvitations(organizationId, initialInvitations);
  const [revoking, setRevoking] = useState<InvitationJson | null>(null);
  const [resending, setResending] = useState<InvitationJson | null>(null);
  const list = invitations.data ?? initialInvitations;
  return (
    <section className="space-y-2" aria-labelledby="pending-invitations">
      <h2 id="pending-invitations" className="text-lg font-semibold">
        Pending invitations
      </h2>
      {invitations.error ? <ErrorState message={problemMessage(invitations.error)} retry={() => void invitations.refetch()} /> : null}
      {list.length === 0 ? (
        <p className="text-sm text-slate-500">None. An invitation shows here until the person accepts it.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Pending invitations">
          {list.map((invitation) => (
            <li key={invitation.id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                {/* The address may be cut short on a phone; its status never is. */}
                <p className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium">{invitation.email}</span>
                  <span className="shrink-0">
                    <Badge tone={invitation.status === "pending" ? "amber" : "slate"}>{invitation.status === "pending" ? "Pending" : "Expired"}</Badge>
                  </span>
                </p>
                <p className="text-sm text-slate-500">
                  {invitation.role} · {scopeBadge(invitation)}{" "}
                  <span className="ml-1">
                    {invitation.status === "pending" ? "expires" : "expired"} {formatDateTime(invitation.expiresAt)}
                  </span>
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                <Button onClick={() => setResending(invitation)} aria-label={`Resend the invitation of ${invitation.email}`}>
                  Resend
                </Button>
                <Button intent="ghost" onClick={() => setRevoking(invitation)} aria-label={`Revoke the invitation of ${invitation.email}`}>
                  Revoke
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {revoking ? <RevokeInvitationDialog organizationId={organizationId} invitation={revoking} onClose={() => setRevoking(null)} /> : null}
      {resending ? <ResendInvitationDialog organizationId={organizationId} invitation={resending} onClose={() => setResending(null)} /> : null}
    </section>
  );
}

/** How an invitation's link went out: mailed, or (no mail on this instance) shown once here. */
function InvitationDelivered({ invited, shownOnceTitle }: { invited: CreatedInvitationJson; shownOnceTitle: string }) {
  return (
    <div className="space-y-3 text-sm">
      <p>
        <strong>{invited.email}</strong> is invited as {invited.role} on {invited.scope === "organization" ? "the whole organization" : `the project ${invited.projectName}`}, until{" "}
        {formatDateTime(invited.expiresAt)}.
      </p>
      {invited.delivery === "email" || !invited.acceptUrl ? (
        <p data-testid="invitation-mailed">An e-mail with the accept link was sent to {invited.email}. The link works once.</p>
      ) : (
        <ShownOnce title={shownOnceTitle} value={invited.acceptUrl} testId="accept-url" copyLabel="Copy link">
          This instance does not send mail: send the link to them over a safe channel. With an account they sign in and accept; without one they choose a password there.
        </ShownOnce>
      )}
    </div>
  );
}

function ResendInvitationDialog({ organizationId, invitation, onClose }: { organizationId: string; invitation: InvitationJson; onClose: () => void }) {
  const resend = useResendInvitation(organizationId);
  const toast = useToast();
  const sent = resend.data;
  if (sent) {
    return (
      <Dialog
        open
        onClose={onClose}
        title="Invitation sent again"
        dismissible={sent.delivery === "email"}
        undismissibleHint="The new accept link is not shown again: copy it first, then press “I have copied it”."
        actions={<CreateDialogActions done doneLabel={sent.delivery === "email" ? "Done" : "I have copied it"} onClose={onClose} formId="" submitLabel="" busy={false} />}
      >
        <InvitationDelivered invited={sent} shownOnceTitle="New accept link — shown only now" />
      </Dialog>
    );
  }
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      title={`Send the invitation of ${invitation.email} again?`}
      description="A new accept link goes out, valid for seven days; the link sent before stops working."
      confirmLabel="Resend invitation"
      busy={resend.isPending}
      error={resend.error ? problemMessage(resend.error) : null}
      onConfirm={() => resend.mutate(invitation.id, { onSuccess: (result) => toast.success(result.delivery === "email" ? `The invitation was mailed to ${result.email} again.` : `A new accept link for ${result.email} was made.`) })}
    />
  );
}

function RevokeInvitationDialog({ organizationId, invitation, onClose }: { organizationId: string; invitation: InvitationJson; onClose: () => void }) {
  const revoke = useRevokeInvitation(organizationId);
  const toast = useToast();
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      danger
      title={`Revoke the invitation of ${invitation.email}?`}
      description="Its accept link stops working now. You can invite them again later."
      confirmLabel="Revoke invitation"
      busy={revoke.isPending}
      error={revoke.error ? problemMessage(revoke.error) : null}
      onConfirm={() =>
        revoke.mutate(invitation.id, {
          onSuccess: () => {
            toast.success(`The invitation of ${invitation.email} was revoked.`);
            onClose();
          },
        })
      }
    />
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
        title={invited ? (invited.delivery === "email" ? "Invitation sent" : "Invitation created") : "Invite a member"}
        description={invited ? null : "They get a link to accept; until they do, the invitation grants nothing."}
        dismissible={!invited || invited.delivery === "email"}
        undismissibleHint="The accept link is not shown again: copy it first, then press “I have copied it”."
        actions={<CreateDialogActions done={Boolean(invited)} doneLabel={invited?.delivery === "email" ? "Done" : undefined} onClose={close} formId={formId} submitLabel="Invite" busy={invite.isPending} />}
      >
        {invited ? (
          <InvitationDelivered invited={invited} shownOnceTitle="Accept link — shown only now" />
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
                  onSuccess: (result) => toast.success(result.delivery === "email" ? `An invitation was mailed to ${result.email}.` : `${result.email} was invited.`),
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
