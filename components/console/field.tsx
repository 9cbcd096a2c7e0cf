import { useId } from "react";

// A labelled form control with its hint and its error (the API's problem+json `errors` entry
// for the field, or a check made while typing), tied to the control for screen readers.

type FieldProps = {
  label: string;
  hint?: React.ReactNode;
  error?: string | null;
  /** e.g. "12 / 160" */
  counter?: string;
  children: (control: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => React.ReactNode;
};

/** A control's id and the ids of its hint and error, with the aria-describedby naming those shown. */
export function useFieldIds(hasHint: boolean, hasError: boolean) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hasHint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined;
  return { id, hintId, errorId, describedBy };
}

export function Field({ label, hint, error, counter, children }: FieldProps) {
  const { id, hintId, errorId, describedBy } = useFieldIds(Boolean(hint), Boolean(error));
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        {counter ? <span className="text-xs tabular-nums text-slate-500">{counter}</span> : null}
      </div>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const inputClass =
  "block w-full rounded-md border-0 bg-white px-3 py-1.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid=true]:ring-red-500 disabled:bg-slate-100";
