"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { Field, inputClass } from "@/components/console/field";
import { ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage, singleFieldError } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useChangePassword, useConsoleSessions, useEndOtherSessions, useEndSession, useUpdateProfile, type ConsoleSessionJson, type ProfileJson } from "@/lib/console/hooks/account";

// The account page's three parts: the name others see, the password, and where you are signed in.

function Panel({ title, description, children }: { title: string; description: React.ReactNode; children: React.ReactNode }) {
  const id = `account-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <div>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{description}</p>
      </div>
      {children}
    </section>
  );
}

export function AccountSettings({ profile, initialSessions }: { profile: ProfileJson; initialSessions: ConsoleSessionJson[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ProfilePanel profile={profile} />
      <PasswordPanel />
      <div className="lg:col-span-2">
        <SessionsPanel initialSessions={initialSessions} />
      </div>
    </div>
  );
}

function ProfilePanel({ profile }: { profile: ProfileJson }) {
  const [name, setName] = useState(profile.name ?? "");
  const update = useUpdateProfile();
  const toast = useToast();
  return (
    <Panel title="Profile" description="Your name appears in audit logs and member lists beside your address.">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ name }, { onSuccess: (saved) => toast.success(saved.name ? "Name saved." : "Name cleared.") });
        }}
      >
        <div className="space-y-1">
          <p className="text-sm font-medium text-slate-800">Email</p>
          <p className="break-all text-sm text-slate-700">{profile.email}</p>
        </div>
        <Field label="Name" error={singleFieldError(update.error, "name")} counter={`${name.length} / 120`}>
          {(control) => <input {...control} className={inputClass} value={name} maxLength={120} autoComplete="name" onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Button type="submit" intent="primary" busy={update.isPending}>
          Save name
        </Button>
      </form>
    </Panel>
  );
}

function PasswordPanel() {
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const change = useChangePassword();
  const toast = useToast();
  const fieldError = (path: string) => (change.error instanceof ApiProblem ? (change.error.fieldError(path) ?? null) : null);
  const otherError = change.error && !fieldError("currentPassword") && !fieldError("newPassword") ? problemMessage(change.error) : null;
  return (
    <Panel title="Password" description="Changing it signs you out everywhere else; this browser stays signed in.">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (newPassword !== repeated) {
            setMismatch(true);
            return;
          }
          change.mutate(
            { currentPassword, newPassword },
            {
              onSuccess: ({ endedSessions }) => {
                setCurrentPassword("");
                setNewPassword("");
                setRepeated("");
                toast.success(endedSessions ? `Password changed. ${endedSessions} other session${endedSessions === 1 ? " was" : "s were"} signed out.` : "Password changed.");
              },
            },
          );
        }}
      >
        <PasswordField label="Current password" value={currentPassword} onChange={setCurrentPassword} autoComplete="current-password" error={fieldError("currentPassword")} />
        <PasswordField
          label="New password"
          hint="At least 8 characters, not a common password: a phrase of a few unrelated words works well."
          value={newPassword}
          onChange={(value) => {
            setNewPassword(value);
            setMismatch(false);
          }}
          error={fieldError("newPassword")}
        />
        <PasswordField
          label="New password again"
          value={repeated}
          onChange={(value) => {
            setRepeated(value);
            setMismatch(false);
          }}
          error={mismatch ? "does not match the new password" : null}
        />
        {otherError ? (
          <p role="alert" className="text-sm text-red-700">
            {otherError}
          </p>
        ) : null}
        <Button type="submit" intent="primary" busy={change.isPending}>
          Change password
        </Button>
      </form>
    </Panel>
  );
}

type PasswordFieldProps = { label: string; hint?: string; value: string; onChange: (value: string) => void; error: string | null; autoComplete?: string };

function PasswordField({ label, hint, value, onChange, error, autoComplete = "new-password" }: PasswordFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <input {...control} type="password" className={inputClass} value={value} autoComplete={autoComplete} onChange={(event) => onChange(event.target.value)} />}
    </Field>
  );
}

function SessionsPanel({ initialSessions }: { initialSessions: ConsoleSessionJson[] }) {
  const sessions = useConsoleSessions(initialSessions);
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const toast = useToast();
  const list = sessions.data ?? initialSessions;
  const others = list.filter((session) => !session.current).length;
  return (
    <Panel title="Where you are signed in" description="Each browser you signed in to the console with. Sign out one you do not recognise, and change your password.">
      {sessions.error ? <ErrorState message={problemMessage(sessions.error)} retry={() => void sessions.refetch()} /> : null}
      <ul className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200" aria-label="Signed-in sessions">
        {list.map((session) => (
          <li key={session.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="font-medium">
                {session.browser ?? "Unknown browser"} {session.current ? <Badge tone="green">This browser</Badge> : null}
              </p>
              <p className="text-sm text-slate-500">Signed in {formatDateTime(session.createdAt)}</p>
            </div>
            {session.current ? null : (
              <Button
                intent="ghost"
                className="self-start sm:self-auto"
                busy={endOne.isPending && endOne.variables === session.id}
                onClick={() => endOne.mutate(session.id, { onSuccess: () => toast.success("Signed out."), onError: (error) => toast.error(problemMessage(error)) })}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Button
        disabledReason={others === 0 ? "You are signed in nowhere else." : undefined}
        busy={endOthers.isPending}
        onClick={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ endedSessions }) => toast.success(`${endedSessions} other session${endedSessions === 1 ? "" : "s"} signed out.`),
            onError: (error) => toast.error(problemMessage(error)),
          })
        }
      >
        Sign out all other sessions
      </Button>
    </Panel>
  );
}
