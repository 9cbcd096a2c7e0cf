"use client";

import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { ConfirmMutationDialog, Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { CreateDialogActions, ShownOnce } from "@/components/console/shown-once";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { problemMessage, singleFieldError } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useCreateCredential, useCredentials, useRevokeCredential, type CredentialJson } from "@/lib/console/hooks/credentials";
import { useShares, type ShareJson } from "@/lib/console/hooks/shares";

export function CredentialsManager({ projectId, initialCredentials, initialShares }: { projectId: string; initialCredentials: CredentialJson[]; initialShares: ShareJson[] }) {
  const credentials = useCredentials(projectId, initialCredentials);
  const shares = useShares(projectId, initialShares);
  const [revoking, setRevoking] = useState<CredentialJson | null>(null);
  const list = credentials.data ?? initialCredentials;
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <CreateCredentialButton projectId={projectId} />
      </div>
      {credentials.error ? <ErrorState message={problemMessage(credentials.error)} retry={() => void credentials.refetch()} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No API credentials yet">Create one to mint embed sessions from your server.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="API credentials">
          {list.map((credential) => (
            <li key={credential.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium">
                  {credential.name ?? "Unnamed"}{" "}
                  <Badge tone={credential.status === "active" ? "green" : "slate"}>{credential.status === "active" ? "Active" : "Revoked"}</Badge>
                </p>
                <p className="break-all font-mono text-sm text-slate-700">{credential.apiKey}</p>
                <p className="text-sm text-slate-500">
                  Created {formatDateTime(credential.createdAt)} · last used {credential.lastUsedAt ? formatDateTime(credential.lastUsedAt) : "never"}
                </p>
              </div>
              {credential.status === "active" ? (
                <Button intent="ghost" onClick={() => setRevoking(credential)}>
                  Revoke<span className="sr-only"> {credential.apiKey}</span>
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {revoking ? (
        <RevokeDialog
          projectId={projectId}
          credential={revoking}
          usedBy={(shares.data ?? initialShares).filter((share) => share.apiCredentialId === revoking.id)}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </div>
  );
}

function RevokeDialog({ projectId, credential, usedBy, onClose }: { projectId: string; credential: CredentialJson; usedBy: ShareJson[]; onClose: () => void }) {
  const revoke = useRevokeCredential(projectId);
  const toast = useToast();
  return (
    <ConfirmMutationDialog
      open
      onClose={onClose}
      danger
      title={`Revoke ${credential.name ?? credential.apiKey}?`}
      description="Servers using it get 401 at once, and embed sessions it minted stop playing. This cannot be undone."
      confirmLabel="Revoke credential"
      mutation={revoke}
      variables={credential.id}
      onDone={() => {
        toast.success("Credential revoked.");
        onClose();
      }}
    >
      {usedBy.length ? (
        <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <p className="font-medium">Shares that use it:</p>
          <ul className="mt-1 list-disc pl-5" aria-label="Shares using this credential">
            {usedBy.map((share) => (
              <li key={share.id}>
                {share.channel}: {share.publicTitle}
              </li>
            ))}
          </ul>
          <p className="mt-1">Pick another credential for them afterwards; they stop playing until you do.</p>
        </div>
      ) : (
        <p className="text-sm text-slate-600">No share uses it.</p>
      )}
    </ConfirmMutationDialog>
  );
}

function CreateCredentialButton({ projectId }: { projectId: string }) {
  const [name, setName] = useState("");
  const create = useCreateCredential(projectId);
  const created = create.data;
  const { open, show, close } = useDialogState(() => {
    setName("");
    create.reset();
  });
  return (
    <>
      <Button intent="primary" onClick={show}>
        New credential
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={created ? "Copy the secret now" : "New API credential"}
        dismissible={!created}
        undismissibleHint="The secret is not shown again: copy it first, then press “I have copied it”."
        actions={
          <CreateDialogActions done={Boolean(created)} onClose={close} formId="create-credential" submitLabel="Create credential" busy={create.isPending} />
        }
      >
        {created ? (
          <div className="space-y-3 text-sm">
            <div>
              <p className="font-medium">API key</p>
              <div className="flex flex-wrap items-center gap-2">
                <code data-testid="api-key" className="break-all rounded bg-slate-100 px-2 py-1 font-mono">
                  {created.apiKey}
                </code>
                <CopyButton value={created.apiKey} label="Copy key" />
              </div>
            </div>
            <ShownOnce title="API secret — shown only now" value={created.apiSecret} testId="api-secret" copyLabel="Copy secret">
              Reelbind keeps only its hash: store it with your server&rsquo;s secrets now.
            </ShownOnce>
          </div>
        ) : (
          <form
            id="create-credential"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate(name.trim() ? { name } : {});
            }}
          >
            <Field label="Name" hint="Which server uses it, e.g. “Shop backend”." error={singleFieldError(create.error, "name")}>
              {(control) => <input {...control} className={inputClass} value={name} maxLength={120} autoFocus onChange={(event) => setName(event.target.value)} />}
            </Field>
          </form>
        )}
      </Dialog>
    </>
  );
}
