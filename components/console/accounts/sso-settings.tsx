"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { ConfirmMutationDialog } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { useToast } from "@/components/console/toast";
import { ApiProblem } from "@/lib/console/api-client";
import { useDeleteSsoSettings, useSaveSsoSettings, useSsoSettings, type SsoSettingsJson } from "@/lib/console/hooks/sso";
import { ssoDefaultRoles } from "@/lib/accounts/sso-contract";

type Props = { organizationId: string; initial: SsoSettingsJson };

/**
 * The organization's single sign-on: the callback URL to register at the identity provider, then
 * issuer, client id and secret (write-only: the server answers only that one is set), the e-mail
 * domain whose new addresses join, their role, and "require SSO".
 */
export function SsoSettings({ organizationId, initial }: Props) {
  const query = useSsoSettings(organizationId, initial);
  const save = useSaveSsoSettings(organizationId);
  const remove = useDeleteSsoSettings(organizationId);
  const toast = useToast();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const data = query.data ?? initial;
  const settings = data.settings;
  const error = save.error instanceof ApiProblem ? save.error : null;
  // A new form (fresh defaults) once saved or removed, so its fields show what the server holds.
  const formKey = settings?.updatedAt ?? "unset";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const secret = String(form.get("clientSecret") ?? "");
    const domain = String(form.get("emailDomain") ?? "").trim();
    save.mutate(
      {
        issuer: String(form.get("issuer") ?? ""),
        clientId: String(form.get("clientId") ?? ""),
        ...(secret ? { clientSecret: secret } : {}),
        emailDomain: domain || null,
        defaultRole: String(form.get("defaultRole")) as (typeof ssoDefaultRoles)[number],
        requireSso: form.get("requireSso") === "on",
      },
      { onSuccess: () => toast.success("Single sign-on settings saved.") },
    );
  }

  return (
    <div className="space-y-6">
      <section aria-labelledby="sso-register" className="space-y-2 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <h2 id="sso-register" className="text-base font-semibold">
          Register Reelbind at your identity provider
        </h2>
        <p className="text-sm text-slate-600">
          Create an OpenID Connect client (authorization code flow, confidential, scopes <code>openid email profile</code>) with this redirect URI:
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code data-testid="sso-callback-url" className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 text-sm">
            {data.callbackUrl}
          </code>
          <CopyButton value={data.callbackUrl} label="Copy redirect URI" />
        </div>
      </section>

      <form key={formKey} onSubmit={onSubmit} className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6" aria-labelledby="sso-provider">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="sso-provider" className="text-base font-semibold">
            Identity provider
          </h2>
          {settings ? <Badge tone="green">Configured</Badge> : <Badge>Not configured</Badge>}
        </div>
        {error?.headline() ? (
          <p role="alert" className="text-sm text-red-700">
            {error.headline()}
          </p>
        ) : null}
        <Field label="Issuer URL" hint="Its /.well-known/openid-configuration must name this issuer exactly." error={error?.fieldError("issuer")}>
          {(control) => <input {...control} name="issuer" type="url" required defaultValue={settings?.issuer ?? ""} placeholder="https://login.example.com" className={inputClass} />}
        </Field>
        <Field label="Client ID" error={error?.fieldError("clientId")}>
          {(control) => <input {...control} name="clientId" required defaultValue={settings?.clientId ?? ""} autoComplete="off" className={inputClass} />}
        </Field>
        <Field
          label="Client secret"
          hint={settings?.clientSecretSet ? "A secret is stored (sealed; never shown). Leave empty to keep it." : "Stored sealed; it is never shown again."}
          error={error?.fieldError("clientSecret")}
        >
          {(control) => (
            <input
              {...control}
              name="clientSecret"
              type="password"
              required={!settings}
              autoComplete="new-password"
              placeholder={settings?.clientSecretSet ? "•••••••• (set)" : ""}
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label="E-mail domain (optional)"
          hint="Addresses of this domain find the organization at sign-in; a new one joins it with the role below. Empty: only existing members sign in."
          error={error?.fieldError("emailDomain")}
        >
          {(control) => <input {...control} name="emailDomain" defaultValue={settings?.emailDomain ?? ""} placeholder="example.com" autoComplete="off" className={inputClass} />}
        </Field>
        <Field label="Role of a new member" hint="Never OrganizationAdmin: make an administrator by hand." error={error?.fieldError("defaultRole")}>
          {(control) => (
            <select {...control} name="defaultRole" defaultValue={settings?.defaultRole ?? "Viewer"} className={inputClass}>
              {ssoDefaultRoles.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          )}
        </Field>
        <label className="flex items-start gap-2 text-sm">
          <input name="requireSso" type="checkbox" defaultChecked={settings?.requireSso ?? false} className="mt-0.5 size-4 rounded border-slate-300" />
          <span>
            <span className="font-medium text-slate-800">Require single sign-on</span>
            <span className="block text-slate-500">Members can no longer sign in with a password. OrganizationAdmins still can, to fix the settings if the provider fails.</span>
          </span>
        </label>
        <div className="flex flex-wrap justify-end gap-2">
          {settings ? (
            <Button intent="danger" onClick={() => setConfirmingRemove(true)}>
              Turn off single sign-on
            </Button>
          ) : null}
          <Button type="submit" intent="primary" busy={save.isPending}>
            Save
          </Button>
        </div>
      </form>
      {confirmingRemove ? (
        <ConfirmMutationDialog
          open
          onClose={() => {
            remove.reset();
            setConfirmingRemove(false);
          }}
          title="Turn off single sign-on?"
          description="The settings and the stored secret are deleted; members sign in with their passwords again (those who joined through single sign-on have none until an admin resets it)."
          confirmLabel="Turn off"
          danger
          mutation={remove}
          variables={undefined}
          onDone={() => {
            setConfirmingRemove(false);
            toast.success("Single sign-on is off.");
          }}
        />
      ) : null}
    </div>
  );
}
