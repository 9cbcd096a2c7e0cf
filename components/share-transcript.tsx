"use client";

import { usePlayerHandle } from "./player-handle";

// The landing page's transcript: every caption and description of this viewer's video, each
// with its time as a button that plays the video from there.

export type TranscriptLine = {
  kind: "captions" | "descriptions";
  /** "Caption" or "Description", in the share's language. */
  kindLabel: string;
  startMs: number;
  /** m:ss */
  time: string;
  /** The button's name: "Play from 0:05", in the share's language. */
  playLabel: string;
  text: string;
};

export function ShareTranscript({ heading, lines, dir, lang }: { heading: string; lines: TranscriptLine[]; dir: "ltr" | "rtl"; lang: string }) {
  const player = usePlayerHandle();
  const playFrom = (positionMs: number) => {
    const commands = player?.current();
    commands?.seek(positionMs);
    commands?.play();
  };
  return (
    <details data-testid="transcript" dir={dir} lang={lang} className="rounded-xl bg-slate-900 ring-1 ring-slate-700">
      <summary className="cursor-pointer select-none px-5 py-3 text-lg font-semibold">{heading}</summary>
      <ol className="flex flex-col gap-3 px-5 pb-5">
        {lines.map((line, i) => (
          <li key={i} data-kind={line.kind} className="flex items-baseline gap-3">
            <button
              type="button"
              onClick={() => playFrom(line.startMs)}
              aria-label={line.playLabel}
              className="shrink-0 rounded px-2 py-0.5 font-mono text-sm tabular-nums text-indigo-300 ring-1 ring-slate-600 hover:bg-slate-800"
            >
              {line.time}
            </button>
            <p className="min-w-0 break-words">
              <span className={line.kind === "descriptions" ? "me-2 text-xs font-semibold uppercase tracking-wide text-amber-300" : "me-2 text-xs font-semibold uppercase tracking-wide text-sky-300"}>
                {line.kindLabel}
              </span>
              <span className={line.kind === "descriptions" ? "italic text-slate-300" : "text-slate-100"}>{line.text}</span>
            </p>
          </li>
        ))}
      </ol>
    </details>
  );
}
