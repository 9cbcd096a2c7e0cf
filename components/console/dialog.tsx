"use client";

import { useEffect, useId, useRef, useState } from "react";
import { problemMessage } from "@/lib/console/api-client";
import { Button } from "./button";

// A modal on the native <dialog>: showModal() makes the rest of the page inert (focus stays
// inside), Escape closes it, and focus returns to what opened it. A dialog showing a secret once
// is not dismissible: only its own button closes it (closedby="none"), and Escape or a click
// outside says so instead.

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  /** The buttons row; a Cancel/Close button is the caller's. */
  actions?: React.ReactNode;
  wide?: boolean;
  /**
   * false while the dialog shows something the user cannot get back (a secret shown once):
   * Escape and a click outside then leave it open and show `undismissibleHint`.
   */
  dismissible?: boolean;
  undismissibleHint?: string;
};

export function Dialog({ open, onClose, title, description, children, actions, wide, dismissible = true, undismissibleHint }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  // "Copy it first" shows after a refused Escape or outside click, until the dialog closes.
  const [hinted, setHinted] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    setHinted(false);
  }
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  useEffect(() => {
    // closedby is newer than React's DOM typings; "none" stops the browser's own light dismiss too.
    ref.current?.setAttribute("closedby", dismissible ? "closerequest" : "none");
  }, [dismissible]);
  useEffect(() => {
    if (dismissible || !open) return;
    // On the document: the control that had focus (the form's submit button) may be gone by now.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      setHinted(true);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [dismissible, open]);
  const refuseDismiss = () => setHinted(true);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => {
        // A browser without closedby may still close it: a secret dialog reopens until its own button closes it.
        if (!dismissible && open) {
          ref.current?.showModal();
          refuseDismiss();
          return;
        }
        onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
        else refuseDismiss();
      }}
      onClick={(event) => {
        // A click on the backdrop targets the dialog element itself (its content is inside the padded div).
        if (event.target === event.currentTarget && !dismissible) refuseDismiss();
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
          {hinted && !dismissible ? (
            <p role="alert" className="mt-4 text-sm font-medium text-amber-900">
              {undismissibleHint ?? "It is not shown again: copy it first, then close with the button below."}
            </p>
          ) : null}
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
