"use client";

import { useState } from "react";
import { useToast } from "@/components/console/toast";
import { ApiProblem } from "@/lib/console/api-client";
import { useSetOrganizationTwoFactor } from "@/lib/console/hooks/two-factor";

// The organization's "require two-factor" setting on its members page (OrganizationAdmin only;
// docs/adr/0157-organizations-require-two-factor.md).

export function RequireTwoFactorSetting({ organizationId, initialRequired }: { organizationId: string; initialRequired: boolean }) {
  const [required, setRequired] = useState(initialRequired);
  const save = useSetOrganizationTwoFactor(organizationId);
  const toast = useToast();
  return (
    <section aria-labelledby="security-heading" className="space-y-2 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <h2 id="security-heading" className="font-medium text-slate-900">
        Security
      </h2>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="requireTwoFactor"
          checked={required}
          disabled={save.isPending}
          className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          onChange={(event) => {
            const next = event.target.checked;
            setRequired(next);
            save.mutate(next, {
              onSuccess: (result) => toast.success(result.required ? "Two-factor authentication is now required." : "Two-factor authentication is no longer required."),
              onError: (error) => {
                setRequired(!next);
                toast.error(error instanceof ApiProblem ? error.message : "The setting could not be saved.");
              },
            });
          }}
        />
        <span>
          <span className="font-medium text-slate-800">Require two-factor authentication</span>
          <span className="block text-slate-600">
            Members who sign in with a password, you included, must set up an authenticator app before they can use the console. Personal access tokens and single
            sign-on are not affected.
          </span>
        </span>
      </label>
    </section>
  );
}
