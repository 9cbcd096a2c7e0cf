"use client";

import { useState } from "react";
import { useFieldIds } from "@/components/console/field";
import { formatBytes } from "@/lib/console/templates/format";

// A file field that takes a file from the picker (click, or Enter/Space on the focused input)
// or dropped onto it. The native input lies invisibly over the drop area, so it keeps its
// label, keyboard use and screen-reader announcements; the chosen files are listed below it,
// each with its own Remove button. What a drop or a pick holds is handed to the form as it is
// (several files, folders): the form decides where each file goes.

type FileDropProps = {
  label: string;
  hint?: React.ReactNode;
  errors?: string[];
  accept: string;
  multiple?: boolean;
  required?: boolean;
  files: File[];
  /** Files chosen with the picker. */
  onPick: (files: FileList | null) => void;
  /** Whatever was dropped here (files, folders), not taken by the form around it. */
  onDropTransfer: (transfer: DataTransfer) => void;
  onRemove: (index: number) => void;
  disabled?: boolean;
};

export function FileDrop({ label, hint, errors, accept, multiple, required, files, onPick, onDropTransfer, onRemove, disabled }: FileDropProps) {
  const { id, hintId, errorId, describedBy } = useFieldIds(Boolean(hint), Boolean(errors?.length));
  const [dragging, setDragging] = useState(false);
  return (
    <div className="space-y-1">
      <div className="flex items-baseline gap-1 text-sm">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
        {/* The input says it is required itself; this is for the eye. */}
        {required ? (
          <span aria-hidden className="text-slate-500">
            (required)
          </span>
        ) : null}
      </div>
      <div
        className={`relative rounded-md border-2 border-dashed px-4 py-4 text-center text-sm transition-colors focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-indigo-600 ${
          errors?.length ? "border-red-400" : dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-white hover:border-slate-400"
        } ${disabled ? "opacity-60" : ""}`}
        onDragEnter={() => setDragging(true)}
        onDragLeave={() => setDragging(false)}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault();
          // The form around also takes drops (anywhere on it); this one is this field's.
          event.stopPropagation();
          setDragging(false);
          if (!disabled) onDropTransfer(event.dataTransfer);
        }}
      >
        <input
          id={id}
          type="file"
          accept={accept}
          multiple={multiple}
          required={required}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={errors?.length ? true : undefined}
          className="absolute inset-0 h-full w-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
          onChange={(event) => {
            onPick(event.target.files);
            // Choosing the same file again after removing it must fire change again.
            event.target.value = "";
          }}
        />
        <p className="pointer-events-none text-slate-600">
          <span className="font-medium text-indigo-700">{multiple ? "Choose files" : files.length ? "Replace file" : "Choose a file"}</span> or drag{" "}
          {multiple ? "them" : "it"} here
        </p>
      </div>
      {files.length > 0 ? (
        <ul className="divide-y divide-slate-100 rounded-md bg-slate-50 text-sm ring-1 ring-slate-200" aria-label={`${label}: chosen`}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="flex items-center justify-between gap-2 px-3 py-1.5">
              <span className="min-w-0 truncate" title={file.name}>
                {file.name} <span className="text-slate-500">({formatBytes(file.size)})</span>
              </span>
              <button
                type="button"
                disabled={disabled}
                onClick={() => onRemove(index)}
                className="shrink-0 rounded px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
              >
                Remove<span className="sr-only"> {file.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <div id={errorId} className="space-y-0.5 text-sm text-red-700">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
