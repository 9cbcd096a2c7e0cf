"use client";

import { useEffect, useId, useMemo, useState } from "react";
import { Button } from "@/components/console/button";
import { Field, inputClass } from "@/components/console/field";
import { useProject } from "@/components/console/project-context";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { usePreviewTemplate } from "@/lib/console/hooks/templates";
import { formatDateTime } from "@/lib/console/format";
import { previewData, previewProblemsByKey, type PreviewField } from "@/lib/console/templates/preview-data";
import type { TemplateJson } from "@/lib/console/templates/template-rules";
import { previewDataLimits } from "@/lib/templates/preview-limits";
import { RenderPanel } from "./render-panel";
import { usePreviewPlayer } from "./use-preview-player";

export type LivePreviewField = PreviewField & { targetLabel: string };

/** Typing settles for this long before the player rebinds. */
const typingPauseMs = 150;

/**
 * The template playing in the real player with data from a form made of its fields: each change
 * goes to the player (SET_DATA) as it is typed. The same data can be rendered to a PNG by the
 * server's preview, as the API's callers would get it.
 */
export function LivePreview({ projectId, template, fields }: { projectId: string; template: TemplateJson; fields: LivePreviewField[] }) {
  const { roleReason } = useProject();
  const [values, setValues] = useState<Record<string, string>>({});
  const [imageNames, setImageNames] = useState<Record<string, string>>({});
  const [imageErrors, setImageErrors] = useState<Record<string, string>>({});
  const data = useMemo(() => previewData(fields, values), [fields, values]);
  const [settled, setSettled] = useState(data);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(data), typingPauseMs);
    return () => clearTimeout(timer);
  }, [data]);
  const { frame, generation, status, warnings, onLoad, restart } = usePreviewPlayer(settled);
  const png = usePreviewTemplate(projectId, template.id);
  const pngProblems = png.error instanceof ApiProblem ? previewProblemsByKey(png.error.errors) : { byKey: {}, other: [] };
  const pngStale = png.data && JSON.stringify(png.variables) !== JSON.stringify(data);

  const width = template.width ?? 1280;
  const height = template.height ?? 720;
  const setValue = (key: string, value: string) => setValues((current) => ({ ...current, [key]: value }));

  const chooseImage = (key: string, file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      if (url.length > previewDataLimits.maxValueLength) {
        setImageErrors((current) => ({ ...current, [key]: `${file.name} is too large for a preview; choose an image under about 700 KB.` }));
        return;
      }
      setImageErrors(({ [key]: _, ...rest }) => rest);
      setImageNames((current) => ({ ...current, [key]: file.name }));
      setValue(key, url);
    };
    reader.readAsDataURL(file);
  };
  const resetImage = (key: string) => {
    setImageNames(({ [key]: _, ...rest }) => rest);
    setImageErrors(({ [key]: _, ...rest }) => rest);
    setValue(key, "");
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form className="space-y-4" onSubmit={(event) => event.preventDefault()} aria-label="Preview data">
        {fields.length === 0 ? (
          <p className="text-sm text-slate-600">This template binds no fields: it plays as uploaded.</p>
        ) : (
          fields.map((field) =>
            field.type === "text" ? (
              <Field
                key={field.key}
                label={field.key}
                hint={`${field.targetLabel}${field.default ? ` · default “${field.default}”` : ""}${field.maxLength ? ` · longer text is cut to ${field.maxLength} characters` : ""}`}
                counter={field.maxLength ? `${[...(values[field.key] ?? "")].length} / ${field.maxLength}` : undefined}
                error={pngProblems.byKey[field.key]}
              >
                {(control) => (
                  <input
                    {...control}
                    autoComplete="off"
                    className={inputClass}
                    placeholder={field.default ?? ""}
                    value={values[field.key] ?? ""}
                    onChange={(event) => setValue(field.key, event.target.value)}
                  />
                )}
              </Field>
            ) : (
              <ImageField
                key={field.key}
                field={field}
                fileName={imageNames[field.key]}
                error={imageErrors[field.key] ?? pngProblems.byKey[field.key]}
                onChoose={(file) => chooseImage(field.key, file)}
                onReset={() => resetImage(field.key)}
              />
            ),
          )
        )}

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
      <div className="order-first space-y-2 lg:order-none">
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
            Restart player
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
    </div>
  );
}

function ImageField({
  field,
  fileName,
  error,
  onChoose,
  onReset,
}: {
  field: LivePreviewField;
  fileName?: string;
  error?: string;
  onChoose: (file: File | undefined) => void;
  onReset: () => void;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {field.key}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
          className="max-w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-indigo-700 hover:file:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          onChange={(event) => {
            onChoose(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        {fileName ? (
          <Button className="text-xs" onClick={onReset}>
            Use the template&apos;s image<span className="sr-only"> for {field.key}</span>
          </Button>
        ) : null}
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {field.targetLabel}
        {fileName ? ` · showing ${fileName}` : field.default ? ` · default ${field.default}` : " · the template's own image"}; PNG, JPEG or WebP.
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
