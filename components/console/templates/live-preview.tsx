"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/console/button";
import { useProject } from "@/components/console/project-context";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { usePreviewTemplate } from "@/lib/console/hooks/templates";
import { formatDateTime } from "@/lib/console/format";
import { previewData, previewProblemsByKey } from "@/lib/console/templates/preview-data";
import type { TemplateJson } from "@/lib/console/templates/template-rules";
import { PreviewFields, type PreviewFormField } from "./preview-fields";
import { PreviewPlayer } from "./preview-player";
import { RenderPanel } from "./render-panel";

/**
 * The template playing in the real player with data from a form made of its fields: each change
 * goes to the player (SET_DATA) as it is typed. The same data can be rendered to a PNG by the
 * server's preview, as the API's callers would get it.
 */
export function LivePreview({ projectId, template, fields }: { projectId: string; template: TemplateJson; fields: PreviewFormField[] }) {
  const { roleReason } = useProject();
  const [values, setValues] = useState<Record<string, string>>({});
  const data = useMemo(() => previewData(fields, values), [fields, values]);
  const png = usePreviewTemplate(projectId, template.id);
  const pngProblems = png.error instanceof ApiProblem ? previewProblemsByKey(png.error.errors) : { byKey: {}, other: [] };
  const pngStale = png.data && JSON.stringify(png.variables) !== JSON.stringify(data);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form className="space-y-4" onSubmit={(event) => event.preventDefault()} aria-label="Preview data">
        <PreviewFields
          fields={fields}
          values={values}
          onChange={(key, value) => setValues((current) => ({ ...current, [key]: value }))}
          errors={pngProblems.byKey}
          emptyText="This template binds no fields: it plays as uploaded."
        />

        <div className="space-y-3 border-t border-slate-200 pt-4">
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={() => png.mutate(data)} busy={png.isPending} disabledReason={roleReason("template.preview")}>
              {png.isPending ? "Rendering…" : "Render PNG on the server"}
            </Button>
            <span className="text-xs text-slate-500">The frame the API&apos;s preview returns for this data.</span>
          </div>
          {png.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {pngProblems.other.length > 0 ? pngProblems.other.join(" ") : problemMessage(png.error)}
            </p>
          ) : null}
          {png.data ? (
            <figure className="space-y-2">
              {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL: nothing for the image optimizer to cache */}
              <img
                src={png.data.url}
                width={png.data.width}
                height={png.data.height}
                alt={`Server-rendered frame ${png.data.frame} of ${template.name} with the form's data`}
                className="h-auto max-h-[28rem] w-auto max-w-full rounded-md bg-slate-100 ring-1 ring-slate-200"
              />
              <figcaption className="text-xs text-slate-600">
                Frame {png.data.frame}, {png.data.width}×{png.data.height}; the link works until {formatDateTime(png.data.expiresAt)}.
                {pngStale ? " The form has changed since: render again to see it." : null}
              </figcaption>
              {png.data.warnings.length > 0 ? (
                <div className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
                  <p className="font-medium">Warnings</p>
                  <ul className="list-disc pl-5">
                    {png.data.warnings.map((warning) => (
                      <li key={warning}>{warning}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </figure>
          ) : null}
        </div>
        <RenderPanel projectId={projectId} templateId={template.id} data={data} />
      </form>

      {/* On a phone the player comes first, above its form. */}
      <PreviewPlayer projectId={projectId} template={template} data={data} className="order-first lg:order-none" />
    </div>
  );
}
