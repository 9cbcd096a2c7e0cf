"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CreateDialogActions, ShownOnce } from "@/components/console/shown-once";
import { ConfirmMutationDialog, Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage, singleFieldError } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useCreateToken, useRevokeToken, useTokens, type TokenJson } from "@/lib/console/hooks/tokens";
import type { TokenScope } from "@/lib/auth/token-scopes";

/** Every scope at once reads as "All scopes"; otherwise each one. */
function ScopeList({ scopes, allScopes }: { scopes: TokenScope[]; allScopes: readonly TokenScope[] }) {
  if (allScopes.every((scope) => scopes.includes(scope))) return <span>All scopes</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <code key={scope} className="rounded bg-slate-100 px-1 text-xs text-slate-700">
          {scope}
        </code>
      ))}
    </span>
  );
}

/** `allScopes` comes from the server page: the scope list lives with the database schema, out of the browser bundle. */
export function TokensManager({ initialTokens, allScopes }: { initialTokens: TokenJson[]; allScopes: readonly TokenScope[] }) {
  const tokens = useTokens(initialTokens);
  const [revoking, setRevoking] = useState<TokenJson | null>(null);
  const list = tokens.data ?? initialTokens;
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <CreateTokenButton allScopes={allScopes} />
      </div>
      {tokens.error ? <ErrorState message={problemMessage(tokens.error)} retry={() => void tokens.refetch()} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No tokens yet">Create one to call the API from a script or CI.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Tokens">
          {list.map((token) => (
            <li key={token.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-medium">
                  {token.name ?? "Unnamed token"} <Badge tone={token.status === "Active" ? "green" : "slate"}>{token.status}</Badge>
                </p>
                <p className="text-sm text-slate-500">
                  Created {formatDateTime(token.createdAt)}
                  {token.parentTokenId ? " with another token" : ""} · last used {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}
                </p>
                <p className="text-sm text-slate-600">
                  Scopes: <ScopeList scopes={token.scopes} allScopes={allScopes} />
                </p>
              </div>
              {token.status === "Active" ? (
                <Button intent="ghost" onClick={() => setRevoking(token)}>
                  Revoke
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {revoking ? <RevokeDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </div>
  );
}

function RevokeDialog({ token, onClose }: { token: TokenJson; onClose: () => void }) {
  const revoke = useRevokeToken();
  const toast = useToast();
  return (
    <ConfirmMutationDialog
      open
      onClose={onClose}
      danger
      title={`Revoke ${token.name ?? "this token"}?`}
      description="Scripts that use it, or any token created with it, get 401 from now on. This cannot be undone."
      confirmLabel="Revoke token"
      mutation={revoke}
      variables={token.id}
      onDone={() => {
        toast.success("Token revoked.");
        onClose();
      }}
    />
  );
}

function CreateTokenButton({ allScopes }: { allScopes: readonly TokenScope[] }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<TokenScope[]>([...allScopes]);
  const create = useCreateToken();
  const created = create.data;
  const { open, show, close } = useDialogState(() => {
    setName("");
    setScopes([...allScopes]);
    create.reset();
  });
  const toggle = (scope: TokenScope, on: boolean) => setScopes((current) => allScopes.filter((s) => (s === scope ? on : current.includes(s))));
  const scopesError = create.error instanceof ApiProblem ? create.error.errors.find((error) => error.path.startsWith("scopes"))?.message : undefined;
  return (
    <>
      <Button intent="primary" onClick={show}>
        New token
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={created ? "Copy your new token" : "New personal access token"}
        dismissible={!created}
        undismissibleHint="The token is not shown again: copy it first, then press “I have copied it”."
        actions={<CreateDialogActions done={Boolean(created)} onClose={close} formId="create-token" submitLabel="Create token" busy={create.isPending} />}
      >
        {created ? (
          <ShownOnce title="This is the only time the token is shown." value={created.token} testId="new-token">
            Store it in your secret manager; Reelbind keeps only its hash.
          </ShownOnce>
        ) : (
          <form
            id="create-token"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate({ name, scopes });
            }}
            className="space-y-4"
          >
            <Field label="Name" hint="What it is for, e.g. “CI deploys”." error={scopesError ? null : singleFieldError(create.error, "name")} counter={`${name.length} / 120`}>
              {(control) => <input {...control} className={inputClass} value={name} maxLength={120} autoFocus onChange={(event) => setName(event.target.value)} />}
            </Field>
            <fieldset className="space-y-2" aria-describedby="token-scopes-hint">
              <legend className="text-sm font-medium text-slate-800">Scopes</legend>
              <p id="token-scopes-hint" className="text-xs text-slate-500">
                What the token may do, within your roles: <code>read</code> for every read, a write scope for each kind of change.
              </p>
              <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
                {allScopes.map((scope) => (
                  <label key={scope} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} />
                    <code>{scope}</code>
                  </label>
                ))}
              </div>
              {scopesError ? <p className="text-sm text-red-700">Scopes: {scopesError}</p> : null}
            </fieldset>
          </form>
        )}
      </Dialog>
    </>
  );
}
