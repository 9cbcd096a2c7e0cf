"use client";

import { useId, useState } from "react";
import { Button } from "@/components/console/button";
import { inputClass } from "@/components/console/field";
import { useProject } from "@/components/console/project-context";
import { problemMessage } from "@/lib/console/api-client";
import { useCreateRender, useRender, type RenderFormatChoice } from "@/lib/console/hooks/renders";

const formats: { value: RenderFormatChoice; label: string }[] = [
  { value: "mp4", label: "MP4 video" },
  { value: "gif", label: "GIF (≤ 5 MB, for email)" },
  { value: "png", label: "PNG still" },
];

const statusText = { queued: "Queued…", rendering: "Rendering…", done: "Done", failed: "Failed" } as const;

/** Renders the template with the preview form's data on the server (a render job) and links the file. */
export function RenderPanel({ projectId, templateId, data }: { projectId: string; templateId: string; data: Record<string, string> }) {
  const { roleReason } = useProject();
  const id = useId();
  const [format, setFormat] = useState<RenderFormatChoice>("mp4");
  const create = useCreateRender(projectId, templateId);
  const render = useRender(projectId, templateId, create.data?.id);
  const current = render.data;

  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-format`} className="text-sm font-medium text-slate-700">
          Render as
        </label>
        <select id={`${id}-format`} className={`${inputClass} w-auto`} value={format} onChange={(event) => setFormat(event.target.value as RenderFormatChoice)}>
          {formats.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <Button onClick={() => create.mutate({ data, format })} busy={create.isPending} disabledReason={roleReason("render.create")}>
          Render
        </Button>
      </div>
      {create.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {problemMessage(create.error)}
        </p>
      ) : null}
      {current ? (
        <p role="status" className="text-sm text-slate-700" data-testid="render-status">
          {statusText[current.status]}
          {current.status === "failed" && current.error ? `: ${current.error}` : null}
          {current.status === "done" && current.downloadUrl ? (
            <>
              {" "}
              <a className="font-medium text-indigo-700 underline" href={current.downloadUrl}>
                Download {current.format.toUpperCase()}
              </a>{" "}
              ({current.width}×{current.height}
              {current.durationMs ? `, ${(current.durationMs / 1000).toFixed(1)} s` : ""}, {Math.ceil((current.bytes ?? 0) / 1024)} KB)
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
