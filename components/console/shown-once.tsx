import { Button } from "./button";
import { CopyButton } from "./copy-button";

// What the "create" dialogs have in common: a secret shown once (token, API secret, one-time
// password) with its copy button and warning, and the dialog's buttons before and after.

export function ShownOnce({ title, value, testId, copyLabel, children }: { title: string; value: string; testId: string; copyLabel?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-2 rounded-md bg-amber-50 p-3 text-sm ring-1 ring-amber-200">
      <p className="font-medium text-amber-900">{title}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="break-all rounded bg-white px-2 py-1 font-mono ring-1 ring-slate-200">
          {value}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </div>
      <p className="text-amber-900">{children}</p>
    </div>
  );
}

/**
 * Cancel + submit (the form's id) while creating; once `done` (a secret is shown once), the one
 * button that closes the dialog, which says the user has the secret.
 */
export function CreateDialogActions({ done = false, doneLabel = "I have copied it", onClose, formId, submitLabel, busy }: { done?: boolean; doneLabel?: string; onClose: () => void; formId: string; submitLabel: string; busy: boolean }) {
  if (done) {
    return (
      <Button intent="primary" onClick={onClose}>
        {doneLabel}
      </Button>
    );
  }
  return (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button intent="primary" type="submit" form={formId} busy={busy}>
        {submitLabel}
      </Button>
    </>
  );
}
