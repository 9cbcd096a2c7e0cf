"use client";

import { useRef, useState } from "react";
import { formatIsoDate, parseConsoleDate } from "@/lib/console/format";

type DateInputProps = {
  id: string;
  /** What the calendar button says to screen readers, e.g. "Choose the start date". */
  calendarLabel: string;
  name?: string;
  /** "2026-11-27", or "" for none (or for a typed text that is not a day yet). */
  value: string;
  onChange: (iso: string) => void;
  min?: string;
  max?: string;
};

/**
 * A day written as the rest of the console writes it ("27 Nov 2026"), not in the browser's locale
 * (an <input type="date"> shows mm/dd/yyyy in en-US). A text box takes "27 Nov 2026" or
 * "2026-11-27"; the calendar button opens the browser's own picker on a hidden date input, so
 * the calendar stays the accessible native one while the text follows the console.
 */
export function DateInput({ id, calendarLabel, name, value, onChange, min, max }: DateInputProps) {
  const [text, setText] = useState(formatIsoDate(value));
  const [error, setError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  // The day this box last reported: a different `value` came from outside (a reset), so the text follows it.
  const [reported, setReported] = useState(value);
  if (value !== reported) {
    setReported(value);
    setText(formatIsoDate(value));
    setError(null);
  }
  const errorId = `${id}-error`;

  /** The typed text as a day within min–max, or why not; "" is no day. */
  const read = (typed: string): { iso: string } | { error: string } => {
    if (!typed.trim()) return { iso: "" };
    const iso = parseConsoleDate(typed);
    if (!iso) return { error: "Write the day like 27 Nov 2026." };
    if (min && iso < min) return { error: `Choose ${formatIsoDate(min)} or later.` };
    if (max && iso > max) return { error: `Choose ${formatIsoDate(max)} or earlier.` };
    return { iso };
  };
  const report = (iso: string) => {
    setReported(iso);
    onChange(iso);
  };

  return (
    <div>
      <div className="relative flex items-stretch">
        <input
          id={id}
          type="text"
          inputMode="text"
          autoComplete="off"
          placeholder="27 Nov 2026"
          className="block w-36 rounded-l-md border-0 px-3 py-2 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-invalid:ring-red-500"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          name={name}
          onChange={(event) => {
            // Reported as it is typed, so the form's submit sees it; the error waits for the blur.
            setText(event.target.value);
            setError(null);
            const typed = read(event.target.value);
            report("iso" in typed ? typed.iso : "");
          }}
          onBlur={() => {
            const typed = read(text);
            if ("error" in typed) setError(typed.error);
            else setText(formatIsoDate(typed.iso));
          }}
        />
        <button
          type="button"
          className="rounded-r-md bg-white px-2 text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          onClick={() => {
            try {
              picker.current?.showPicker();
            } catch {
              picker.current?.focus();
            }
          }}
        >
          <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M6 2a1 1 0 0 1 1 1v1h6V3a1 1 0 1 1 2 0v1h1a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h1V3a1 1 0 0 1 1-1Zm10 7H4v7h12V9Z" />
          </svg>
          <span className="sr-only">{calendarLabel}</span>
        </button>
        {/* The native calendar only: never shown, never focused by Tab; its day lands in the text box. */}
        <input
          ref={picker}
          type="date"
          tabIndex={-1}
          aria-hidden
          className="pointer-events-none absolute bottom-0 right-0 h-px w-px opacity-0"
          value={value}
          min={min}
          max={max}
          onChange={(event) => {
            setError(null);
            setText(formatIsoDate(event.target.value));
            report(event.target.value);
          }}
        />
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
