"use client";

import { useId, useState } from "react";
import { Button } from "@/components/console/button";
import { Field, inputClass } from "@/components/console/field";
import type { PreviewField } from "@/lib/console/templates/preview-data";
import { previewDataLimits } from "@/lib/templates/preview-limits";

/** A field of the preview form: its key and rules, and a note on where it goes (its target, or which templates have it). */
export type PreviewFormField = PreviewField & { note: string };

type Props = {
  fields: readonly PreviewFormField[];
  values: Readonly<Record<string, string>>;
  onChange: (key: string, value: string) => void;
  /** The server's word on a key's value (the PNG preview's 422), shown under its input. */
  errors?: Readonly<Record<string, string>>;
  emptyText: string;
};

/**
 * The inputs of a preview form, one per field: text typed, an image chosen from disk (sent as a
 * data URL). The values are the caller's; which file each image field shows is kept here.
 */
export function PreviewFields({ fields, values, onChange, errors = {}, emptyText }: Props) {
  const [imageNames, setImageNames] = useState<Record<string, string>>({});
  const [imageErrors, setImageErrors] = useState<Record<string, string>>({});

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
      onChange(key, url);
    };
    reader.readAsDataURL(file);
  };
  const resetImage = (key: string) => {
    setImageNames(({ [key]: _, ...rest }) => rest);
    setImageErrors(({ [key]: _, ...rest }) => rest);
    onChange(key, "");
  };

  if (fields.length === 0) return <p className="text-sm text-slate-600">{emptyText}</p>;
  return fields.map((field) =>
    field.type === "text" ? (
      <Field
        key={field.key}
        label={field.key}
        hint={`${field.note}${field.default ? ` · default “${field.default}”` : ""}${field.maxLength ? ` · longer text is cut to ${field.maxLength} characters` : ""}`}
        counter={field.maxLength ? `${[...(values[field.key] ?? "")].length} / ${field.maxLength}` : undefined}
        error={errors[field.key]}
      >
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            className={inputClass}
            placeholder={field.default ?? ""}
            value={values[field.key] ?? ""}
            onChange={(event) => onChange(field.key, event.target.value)}
          />
        )}
      </Field>
    ) : (
      <ImageField
        key={field.key}
        field={field}
        fileName={imageNames[field.key]}
        error={imageErrors[field.key] ?? errors[field.key]}
        onChoose={(file) => chooseImage(field.key, file)}
        onReset={() => resetImage(field.key)}
      />
    ),
  );
}

function ImageField({
  field,
  fileName,
  error,
  onChoose,
  onReset,
}: {
  field: PreviewFormField;
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
        {field.note}
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
