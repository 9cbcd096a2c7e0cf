"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button, ButtonLink } from "@/components/console/button";
import { Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { CreateDialogActions } from "@/components/console/shown-once";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { problemMessage, singleFieldError } from "@/lib/console/api-client";
import { useCreateProject, useMe, type Me } from "@/lib/console/hooks/organizations";

/** The user's organizations, each with its projects; admins create projects and open the members page. */
export function ProjectsOverview({ initialMe }: { initialMe: Me }) {
  const me = useMe(initialMe);
  if (me.error) return <ErrorState message={problemMessage(me.error)} retry={() => void me.refetch()} />;
  const { organizations, projects } = me.data ?? initialMe;
  if (organizations.length === 0) {
    return (
      <EmptyState title="You are not a member of any project yet">
        An organization admin can add you: give them the email you signed in with.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-8">
      {organizations.map((organization) => {
        const own = projects.filter((project) => project.organizationId === organization.id);
        const admin = organization.role === "OrganizationAdmin";
        return (
          <section key={organization.id} aria-labelledby={`org-${organization.id}`} className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex items-center gap-2">
                <h2 id={`org-${organization.id}`} className="text-lg font-semibold">
                  {organization.name}
                </h2>
                {organization.role ? <Badge tone="blue">{organization.role}</Badge> : null}
              </div>
              {admin ? (
                <div className="flex gap-2">
                  <ButtonLink href={`/organizations/${organization.id}/members`}>Members</ButtonLink>
                  <ButtonLink href={`/organizations/${organization.id}/sso`}>Single sign-on</ButtonLink>
                  <CreateProjectButton organizationId={organization.id} organizationName={organization.name} />
                </div>
              ) : null}
            </div>
            {own.length === 0 ? (
              <EmptyState title="No projects yet">{admin ? "Create the first one." : "An organization admin can create one."}</EmptyState>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={`Projects of ${organization.name}`}>
                {own.map((project) => (
                  <li key={project.id}>
                    <Link
                      href={`/projects/${project.id}`}
                      className="flex h-full items-center justify-between gap-2 rounded-lg bg-white px-4 py-3 ring-1 ring-slate-200 hover:ring-indigo-400 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      <span className="font-medium">{project.name}</span>
                      <Badge>{project.role}</Badge>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function CreateProjectButton({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const [name, setName] = useState("");
  const create = useCreateProject(organizationId);
  const toast = useToast();
  const { open, show, close } = useDialogState(() => {
    setName("");
    create.reset();
  });
  const formId = `create-project-${organizationId}`;
  return (
    <>
      <Button intent="primary" onClick={show}>
        New project
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`New project in ${organizationName}`}
        actions={<CreateDialogActions onClose={close} formId={formId} submitLabel="Create project" busy={create.isPending} />}
      >
        <form
          id={formId}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate(
              { name },
              {
                onSuccess: (project) => {
                  toast.success(`Project ${project.name} created.`);
                  close();
                },
              },
            );
          }}
        >
          <Field
            label="Name"
            error={singleFieldError(create.error, "name")}
            counter={`${name.length} / 120`}
          >
            {(control) => <input {...control} className={inputClass} value={name} maxLength={120} required autoFocus onChange={(event) => setName(event.target.value)} />}
          </Field>
        </form>
      </Dialog>
    </>
  );
}
