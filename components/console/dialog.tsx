"use client";

import { useEffect, useId, useRef, useState } from "react";
import { problemMessage } from "@/lib/console/api-client";
import { Button } from "./button";

// A modal on the native <dialog>: showModal() makes the rest of the page inert (focus stays
// inside), Escape closes it, and focus returns to what opened it.

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  /** The buttons row; a Cancel/Close button is the caller's. */
  actions?: React.ReactNode;
  wide?: boolean;
};

export function Dialog({ open, onClose, title, description, children, actions, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? "max-w-2xl" : "max-w-md"} rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50`}
    >
      {open ? (
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? (
            <div id={descriptionId} className="mt-2 text-sm text-slate-600">
              {description}
            </div>
          ) : null}
          {children ? <div className="mt-4">{children}</div> : null}
          {actions ? <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}

type ConfirmProps = {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  /** The API's refusal, shown in the dialog so the user sees why nothing happened. */
  error?: string | null;
  children?: React.ReactNode;
};

/** "Are you sure?" naming what will happen; the confirm button says what it does. */
export function ConfirmDialog({ open, onClose, onConfirm, title, description, confirmLabel, danger, busy, error, children }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button intent={danger ? "danger" : "primary"} onClick={onConfirm} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

/** What ConfirmMutationDialog needs of a react-query mutation. */
type ConfirmableMutation<Variables> = {
  isPending: boolean;
  error: unknown;
  mutate(variables: Variables, options: { onSuccess: () => void }): void;
};

type ConfirmMutationProps<Variables> = Omit<ConfirmProps, "onConfirm" | "busy" | "error"> & {
  mutation: ConfirmableMutation<Variables>;
  variables: Variables;
  /** After the server agreed: a toast, closing, navigating. */
  onDone: () => void;
};

/** A ConfirmDialog whose confirm button runs a mutation: busy while it runs, its refusal shown inside. */
export function ConfirmMutationDialog<Variables>({ mutation, variables, onDone, ...props }: ConfirmMutationProps<Variables>) {
  return (
    <ConfirmDialog
      {...props}
      busy={mutation.isPending}
      error={mutation.error ? problemMessage(mutation.error) : null}
      onConfirm={() => mutation.mutate(variables, { onSuccess: onDone })}
    />
  );
}

/** A dialog's open state; closing it also runs `reset` (its form's fields, its mutation's result). */
export function useDialogState(reset: () => void) {
  const [open, setOpen] = useState(false);
  return {
    open,
    show: () => setOpen(true),
    close: () => {
      setOpen(false);
      reset();
    },
  };
}
