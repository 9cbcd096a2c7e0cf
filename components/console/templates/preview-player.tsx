"use client";

import { useEffect, useState } from "react";
import type { TemplateJson } from "@/lib/console/templates/template-rules";
import { usePreviewPlayer } from "./use-preview-player";

/** Typing settles for this long before the player rebinds. */
const typingPauseMs = 150;

type Props = { projectId: string; template: Pick<TemplateJson, "id" | "name" | "version" | "width" | "height">; data: Record<string, string>; className?: string };

/**
 * The template playing in the real player (GET /embed/template-preview/…) with `data`: each
 * change goes to the player (SET_DATA) once typing pauses. Its status line says when it plays.
 */
export function PreviewPlayer({ projectId, template, data, className }: Props) {
  const [settled, setSettled] = useState(data);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(data), typingPauseMs);
    return () => clearTimeout(timer);
  }, [data]);
  const { frame, generation, status, warnings, onLoad, restart } = usePreviewPlayer(settled);
  const width = template.width ?? 1280;
  const height = template.height ?? 720;

  return (
    <div className={`space-y-2 ${className ?? ""}`}>
      <div className="mx-auto overflow-hidden rounded-lg bg-slate-900 shadow-sm" style={{ aspectRatio: `${width} / ${height}`, width: `min(100%, ${(28 * width) / height}rem)` }}>
        <iframe
          key={generation}
          ref={frame}
          src={`/embed/template-preview/${projectId}/${template.id}`}
          title={`Live preview of ${template.name} ${template.version}`}
          allow="autoplay; fullscreen"
          onLoad={onLoad}
          className="block h-full w-full border-0"
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <p role="status">
          {status.state === "loading" ? "Player loading…" : status.state === "ready" ? "Playing this template; changes show as you type. Nothing is recorded in analytics." : `The player failed: ${status.message}`}
        </p>
        <button type="button" onClick={restart} className="rounded font-medium text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-600">
          Restart player<span className="sr-only"> of {`${template.name} ${template.version}`}</span>
        </button>
      </div>
      {warnings.length > 0 ? (
        <ul className="list-disc rounded-md bg-amber-50 py-2 pl-8 pr-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
