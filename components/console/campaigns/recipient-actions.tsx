"use client";

import { useState } from "react";
import { Button } from "@/components/console/button";
import { ConfirmMutationDialog, Dialog, useDialogState } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { useRegenerateRecipientUrl, useRemoveRecipient, useUpdateRecipient, type RecipientJson } from "@/lib/console/hooks/campaigns";

type TemplateField = { key: string; required: boolean; maxLength: number | null };

/** Who a recipient is, in a sentence: their e-mail, else their id. */
export const recipientName = (recipient: RecipientJson) => recipient.email ?? recipient.externalId;

/** A recipient's row actions: edit their data, give them a new link, remove them. */
export function RecipientActions({ projectId, campaignId, recipient, fields }: { projectId: string; campaignId: string; recipient: RecipientJson; fields: TemplateField[] }) {
  const toast = useToast();
  const update = useUpdateRecipient(projectId, campaignId);
  const regenerate = useRegenerateRecipientUrl(projectId, campaignId);
  const remove = useRemoveRecipient(projectId, campaignId);
  const editing = useDialogState(() => update.reset());
  const renewing = useDialogState(() => regenerate.reset());
  const removing = useDialogState(() => remove.reset());
  const name = recipientName(recipient);
  return (
    <div className="flex gap-2 whitespace-nowrap max-sm:flex-wrap">
      <Button onClick={editing.show} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button onClick={renewing.show} aria-label={`New link for ${name}`}>
        New link
      </Button>
      <Button intent="danger" onClick={removing.show} aria-label={`Remove ${name}`}>
        Remove
      </Button>
      {editing.open ? <EditRecipient recipient={recipient} fields={fields} mutation={update} onClose={editing.close} onDone={() => toast.success(`${name} updated.`)} /> : null}
      <ConfirmMutationDialog
        open={renewing.open}
        onClose={renewing.close}
        title={`New link for ${name}?`}
        description="The current link stops working at once: anyone who has it gets “not found”. Send the new one again."
        confirmLabel="Make a new link"
        mutation={regenerate}
        variables={recipient.id}
        onDone={() => {
          renewing.close();
          toast.success(`${name} has a new link.`);
        }}
      />
      <ConfirmMutationDialog
        open={removing.open}
        onClose={removing.close}
        title={`Remove ${name}?`}
        description="Their link stops working at once; what they watched stays in the analytics."
        confirmLabel="Remove"
        danger
        mutation={remove}
        variables={recipient.id}
        onDone={() => {
          removing.close();
          toast.success(`${name} removed.`);
        }}
      />
    </div>
  );
}

function EditRecipient({
  recipient,
  fields,
  mutation,
  onClose,
  onDone,
}: {
  recipient: RecipientJson;
  fields: TemplateField[];
  mutation: ReturnType<typeof useUpdateRecipient>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [email, setEmail] = useState(recipient.email ?? "");
  const [data, setData] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.key, typeof recipient.data[field.key] === "string" ? (recipient.data[field.key] as string) : ""])),
  );
  const problem = mutation.error instanceof ApiProblem ? mutation.error : null;
  const formId = `edit-recipient-${recipient.id}`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit ${recipientName(recipient)}`}
      description="Their link stays the same; the video and page show the new data from now on."
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button intent="primary" type="submit" form={formId} busy={mutation.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          // Empty fields are left out: the template's default (or the share's data) fills them.
          const filled = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== ""));
          mutation.mutate(
            { recipientId: recipient.id, email: email.trim() === "" ? null : email.trim(), data: filled },
            {
              onSuccess: () => {
                onClose();
                onDone();
              },
            },
          );
        }}
      >
        <Field label="E-mail" error={problem?.fieldError("email")}>
          {(control) => <input {...control} type="email" value={email} onChange={(event) => setEmail(event.target.value)} className={inputClass} />}
        </Field>
        {fields.map((field) => (
          <Field key={field.key} label={`${field.key}${field.required ? " (required)" : ""}`} error={problem?.fieldError(`data.${field.key}`) ?? problem?.fieldError(field.key)}>
            {(control) => (
              <input
                {...control}
                value={data[field.key] ?? ""}
                maxLength={field.maxLength ?? undefined}
                required={field.required}
                onChange={(event) => setData({ ...data, [field.key]: event.target.value })}
                className={inputClass}
              />
            )}
          </Field>
        ))}
        {problem && problem.errors.length === 0 ? (
          <p role="alert" className="text-sm text-red-700">
            {problemMessage(problem)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
