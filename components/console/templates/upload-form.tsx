"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button, ButtonLink } from "@/components/console/button";
import { Field, inputClass } from "@/components/console/field";
import { useToast } from "@/components/console/toast";
import { ApiProblem, type FieldProblem } from "@/lib/console/api-client";
import { useUploadTemplate, type UploadMode } from "@/lib/console/hooks/templates";
import { formatBytes } from "@/lib/console/templates/format";
import { templateKindList, type TemplateKind, type UploadedTemplateJson } from "@/lib/console/templates/template-rules";
import {
  attemptFor,
  emptyDraft,
  fileRolesByKind,
  groupProblems,
  labelsFor,
  missingFields,
  type FileRole,
  type SubmissionAttempt,
  type UploadDraft,
} from "@/lib/console/templates/upload-draft";
import { sortFiles, type SortedLine } from "@/lib/console/templates/sort-files";
import { filesOfDrop, filesOfPicker, readIncoming } from "./dropped-files";
import { FileDrop } from "./file-drop";
import { kindLabels } from "./kind-labels";

type Phase = { state: "idle" } | { state: "sending"; loaded: number; total: number } | { state: "processing"; total: number };

const hints: Record<FileRole, (kind: TemplateKind) => React.ReactNode> = {
  templateJson: (kind) =>
    kind === "Raster"
      ? "Optional: the Lottie animation (.json) drawn over the video, with the text and images to personalize."
      : "The Lottie (Bodymovin) export, .json. Expressions do not run in the player.",
  manifestJson: () => (
    <>
      Optional: binds data keys to text layers, image assets or slots (manifest version 1). Without one, text layers named <code>{"{{key}}"}</code> bind by
      convention.
    </>
  ),
  overlayJson: () => (
    <>
      Optional: how the overlay sits on the video, e.g. <code>{'{"version": 1, "fit": "contain", "offsetSeconds": 0}'}</code>.
    </>
  ),
  videoFile: () => "The MP4 background video.",
  posterFile: () => "Optional: a PNG, JPEG or WebP image shown before the video plays.",
  assetFiles: () =>
    "Images (PNG, JPEG, GIF, WebP) and fonts (TTF, OTF, WOFF, WOFF2) the animation names: every image it loads by name must be here, unless an image field of the manifest fills it from personalization data. SVG is not accepted.",
};

const accepts: Record<FileRole, string> = {
  templateJson: ".json,application/json",
  manifestJson: ".json,application/json",
  overlayJson: ".json,application/json",
  videoFile: "video/mp4,.mp4",
  posterFile: "image/png,image/jpeg,image/webp",
  assetFiles: "image/png,image/jpeg,image/gif,image/webp,.ttf,.otf,.woff,.woff2",
};

/**
 * The upload form: name, version, kind and the kind's files, sent with a progress bar as one
 * multipart request, or (`uploadMode` direct or uploadthing) part by part straight to storage
 * through an upload session, which a later submission of the same files resumes. One
 * Idempotency-Key per submission, reused when the same submission is sent again (after a network
 * failure, say), so a retry never makes a second template.
 */
export function UploadForm({ projectId, uploadMode }: { projectId: string; uploadMode: UploadMode }) {
  const router = useRouter();
  const toast = useToast();
  const upload = useUploadTemplate(projectId, uploadMode);
  const [draft, setDraft] = useState<UploadDraft>(emptyDraft);
  /** The draft as of the last render: files are sorted against it once they have been read. */
  const draftNow = useRef(draft);
  useEffect(() => {
    draftNow.current = draft;
  }, [draft]);
  /** What the last drop or pick did with each of its files. */
  const [sorted, setSorted] = useState<SortedLine[] | null>(null);
  /** An upload the server took with warnings: shown here before moving on, as a toast would vanish with them. */
  const [accepted, setAccepted] = useState<{ template: UploadedTemplateJson; replayed: boolean } | null>(null);
  const [phase, setPhase] = useState<Phase>({ state: "idle" });
  const [resuming, setResuming] = useState(false);
  /** The form's own checks (full sentences) and the server's field errors (worded as the API words them). */
  const [localProblems, setLocalProblems] = useState<FieldProblem[]>([]);
  const [serverProblems, setServerProblems] = useState<FieldProblem[]>([]);
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const attempt = useRef<SubmissionAttempt | null>(null);
  const controller = useRef<AbortController | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const labels = labelsFor(draft.kind);
  const grouped = groupProblems(serverProblems, labels);
  const busy = phase.state !== "idle";
  const problemCount = localProblems.length + serverProblems.length;

  useEffect(() => {
    if (problemCount > 0 || formMessage) summary.current?.focus();
  }, [problemCount, formMessage]);
  // Leaving the page mid-upload cancels it.
  useEffect(() => () => controller.current?.abort(), []);

  const update = (change: Partial<UploadDraft>) => setDraft((current) => ({ ...current, ...change }));
  /** Files dropped or picked on a field (`zone`) or anywhere on the form: each goes to its own field, and the form says where. */
  /** The placements still reading their files, in order: a submit waits for them. */
  const placing = useRef<Promise<void>>(Promise.resolve());
  const place = (located: Promise<{ file: File; path: string }[]> | { file: File; path: string }[], zone?: FileRole) => {
    const read = Promise.resolve(located).then(readIncoming);
    placing.current = placing.current.then(async () => {
      const incoming = await read.catch(() => []);
      if (incoming.length === 0) return;
      const result = sortFiles(draftNow.current, incoming, zone);
      draftNow.current = result.draft;
      setDraft(result.draft);
      setSorted(result.report);
    });
  };
  const setFiles = (role: FileRole, files: File[]) =>
    setDraft((current) => ({ ...current, files: role === "assetFiles" ? { ...current.files, assetFiles: files } : { ...current.files, [role]: files[0] } }));
  const filesOf = (role: FileRole): File[] => (role === "assetFiles" ? draft.files.assetFiles : draft.files[role] ? [draft.files[role]] : []);
  const errorsOf = (field: string): string[] | undefined => {
    const messages = [...localProblems.filter((problem) => problem.path === field).map((problem) => problem.message), ...(grouped.byField[field] ?? [])];
    return messages.length > 0 ? messages : undefined;
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // Files dropped a moment ago may still be being read; the draft they make is the one sent.
    void placing.current.then(() => send(draftNow.current));
  };

  const send = (draft: UploadDraft) => {
    // A second click while the first one waited for the files is the same submission.
    if (controller.current) return;
    setFormMessage(null);
    const missing = missingFields(draft);
    setLocalProblems(missing);
    setServerProblems([]);
    if (missing.length > 0) return;
    attempt.current = attemptFor(draft, attempt.current);
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ state: "sending", loaded: 0, total: 0 });
    setResuming(false);
    upload.mutate(
      {
        draft,
        idempotencyKey: attempt.current.key,
        signal: abort.signal,
        onProgress: ({ loaded, total }) => setPhase(loaded >= total ? { state: "processing", total } : { state: "sending", loaded, total }),
        onResume: () => setResuming(true),
      },
      {
        onSuccess: ({ body, replayed }) => {
          attempt.current = null;
          if ((body.warnings ?? []).length > 0) {
            setPhase({ state: "idle" });
            controller.current = null;
            return setAccepted({ template: body, replayed });
          }
          toast.success(replayed ? `${body.name} ${body.version} was already uploaded.` : `${body.name} ${body.version} uploaded; it is in Testing.`);
          router.push(`/projects/${projectId}/templates/${body.id}`);
        },
        onError: (error) => {
          setPhase({ state: "idle" });
          controller.current = null;
          if ((error as Error).name === "AbortError") {
            // A cancelled submission is over: the server kept nothing, and the next one gets a new key.
            attempt.current = null;
            setFormMessage("Upload cancelled. Nothing was saved.");
            return;
          }
          if (!(error instanceof ApiProblem)) return setFormMessage(String((error as Error).message));
          if (error.errors.length > 0) {
            // What the user did wrong first (a file in the wrong field), when the server says it; the detail by field below.
            setFormMessage(error.headline());
            return setServerProblems(error.errors);
          }
          setFormMessage(messageFor(error));
        },
      },
    );
  };

  const percent = phase.state === "processing" ? 100 : phase.state === "sending" && phase.total > 0 ? Math.floor((phase.loaded / phase.total) * 100) : 0;

  if (accepted) return <AcceptedWithWarnings projectId={projectId} {...accepted} />;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6"
      aria-labelledby="upload-heading"
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        if (!busy) place(filesOfDrop(event.dataTransfer));
      }}
    >
      <div>
        <h1 id="upload-heading" className="text-2xl font-semibold">
          Upload a template
        </h1>
        <p className="mt-1 text-sm text-slate-600">A new template starts in Testing: the DEV and STAGING shares play it until you deploy it. Up to 250 MB in all.</p>
      </div>

      {problemCount > 0 || formMessage ? (
        <div ref={summary} tabIndex={-1} role="alert" className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200 focus:outline-2 focus:outline-red-600">
          {formMessage ? <p className={serverProblems.length > 0 ? "font-semibold" : undefined}>{formMessage}</p> : null}
          {localProblems.length > 0 ? <p className="font-medium">Some required parts are missing; see the marked fields.</p> : null}
          {serverProblems.length > 0 ? (
            <p className={formMessage ? "mt-1" : "font-medium"}>
              {formMessage ? "Details: " : null}The server refused the upload ({serverProblems.length === 1 ? "1 problem" : `${serverProblems.length} problems`}); see the marked fields.
            </p>
          ) : null}
          {grouped.other.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {grouped.other.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <fieldset disabled={busy} className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <legend className="sr-only">Template</legend>
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <Field label="Name" error={errorsOf("name")?.join(" ")} counter={`${draft.name.length} / 200`}>
            {(control) => (
              <input {...control} required maxLength={200} autoComplete="off" className={inputClass} value={draft.name} onChange={(event) => update({ name: event.target.value })} />
            )}
          </Field>
          <Field label="Version" hint="major.minor, e.g. 1.0" error={errorsOf("version")?.join(" ")}>
            {(control) => <input {...control} inputMode="decimal" autoComplete="off" className={inputClass} value={draft.version} onChange={(event) => update({ version: event.target.value })} />}
          </Field>
        </div>
        <Field
          label="Kind"
          hint={draft.kind === "Raster" ? "An MP4 video with a Lottie overlay for the personalized text and images." : "A Lottie animation with its images and fonts."}
          error={errorsOf("kind")?.join(" ")}
        >
          {(control) => (
            <select {...control} className={`${inputClass} sm:max-w-xs`} value={draft.kind} onChange={(event) => update({ kind: event.target.value as TemplateKind })}>
              {templateKindList.map((kind) => (
                <option key={kind} value={kind}>
                  {kind === "LottieStandalone" ? "LottieStandalone — Lottie animation" : "Raster — MP4 video + Lottie overlay"}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>

      <fieldset disabled={busy} className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <legend className="float-left mb-2 w-full text-base font-semibold">Files for a {kindLabels[draft.kind]} template</legend>
        {/* Cleared below the floated legend: a flex row beside a float would shrink to nothing. */}
        <div className="clear-both space-y-4">
          <FolderPicker disabled={busy} onPick={(list) => place(filesOfPicker(list))} />
          <div aria-live="polite">{sorted ? <SortedReport lines={sorted} onDismiss={() => setSorted(null)} /> : null}</div>
          {fileRolesByKind[draft.kind].map((role) => (
            <FileDrop
              key={role}
              label={labels[role]!}
              hint={hints[role](draft.kind)}
              errors={errorsOf(role)}
              accept={accepts[role]}
              multiple={role === "assetFiles"}
              required={(role === "templateJson" && draft.kind === "LottieStandalone") || role === "videoFile"}
              files={filesOf(role)}
              disabled={busy}
              onPick={(list) => place(filesOfPicker(list), role)}
              onDropTransfer={(transfer) => place(filesOfDrop(transfer), role)}
              onRemove={(index) => setFiles(role, filesOf(role).filter((_, i) => i !== index))}
            />
          ))}
        </div>
      </fieldset>

      {busy ? <UploadProgressBar percent={percent} phase={phase} resuming={resuming} /> : null}

      <div className="flex flex-wrap items-center justify-end gap-2">
        {busy ? (
          <Button
            intent="secondary"
            onClick={() => controller.current?.abort()}
            disabledReason={phase.state === "processing" ? "Every byte is sent; the server is finishing the upload." : null}
          >
            Cancel upload
          </Button>
        ) : (
          <ButtonLink href={`/projects/${projectId}/templates`} intent="ghost">
            Back to templates
          </ButtonLink>
        )}
        <Button type="submit" intent="primary" busy={busy}>
          {busy ? "Uploading…" : "Upload template"}
        </Button>
      </div>
    </form>
  );
}

/** The upload was taken, but the server warns about it (an image only personalization data fills): said before the user moves on. */
function AcceptedWithWarnings({ projectId, template, replayed }: { projectId: string; template: UploadedTemplateJson; replayed: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const warnings = template.warnings ?? [];
  return (
    <section aria-labelledby="accepted-heading" className="space-y-4">
      <h1 id="accepted-heading" ref={heading} tabIndex={-1} className="text-2xl font-semibold focus:outline-none">
        {template.name} {template.version} {replayed ? "was already uploaded" : "uploaded"}; it is in Testing
      </h1>
      <div role="alert" className="rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
        <p className="font-medium">{warnings.length === 1 ? "One thing to check before you deploy it:" : `${warnings.length} things to check before you deploy it:`}</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2">
        <ButtonLink href={`/projects/${projectId}/templates`} intent="ghost">
          Back to templates
        </ButtonLink>
        <ButtonLink href={`/projects/${projectId}/templates/${template.id}`} intent="primary">
          Open the template
        </ButtonLink>
      </div>
    </section>
  );
}

/**
 * Drop a folder or several files anywhere on the form; or pick a folder here (a drag is no use
 * from a keyboard, and some systems' pickers cannot choose several files across folders).
 */
function FolderPicker({ disabled, onPick }: { disabled: boolean; onPick: (list: FileList | null) => void }) {
  // webkitdirectory is not in React's input attributes; every current browser knows it.
  const folder = { webkitdirectory: "", directory: "" } as Record<string, string>;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-950 ring-1 ring-indigo-100">
      <p className="min-w-0 flex-1 basis-64">Drop a template&rsquo;s folder, or all its files at once, anywhere on this form: each file goes to its field.</p>
      <label className="relative inline-flex shrink-0 cursor-pointer items-center rounded-md bg-white px-3 py-1.5 font-medium text-indigo-700 ring-1 ring-indigo-200 focus-within:outline-2 focus-within:outline-indigo-600 hover:bg-indigo-100 has-disabled:cursor-not-allowed has-disabled:opacity-60">
        Choose a folder…
        <input
          type="file"
          multiple
          {...folder}
          disabled={disabled}
          className="absolute inset-0 h-full w-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
          onChange={(event) => {
            onPick(event.target.files);
            event.target.value = "";
          }}
        />
      </label>
    </div>
  );
}

/** The short list of what the last drop or pick did: "data.json → Lottie JSON", "notes.txt → ignored: not a template file". */
function SortedReport({ lines, onDismiss }: { lines: SortedLine[]; onDismiss: () => void }) {
  const placed = lines.filter((line) => line.placed).length;
  const files = lines.length === 1 ? "1 file" : `${lines.length} files`;
  const summary = placed === lines.length ? `${files} added:` : placed === 0 ? `${files} not added:` : `${files}: ${placed} added, ${lines.length - placed} left out.`;
  return (
    <section aria-label="Files sorted" className="rounded-md bg-white px-3 py-2 text-sm ring-1 ring-slate-200">
      <div className="flex items-baseline justify-between gap-2">
        <p className="font-medium text-slate-800">{summary}</p>
        <button type="button" onClick={onDismiss} className="shrink-0 rounded px-2 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
          Dismiss<span className="sr-only"> the list of sorted files</span>
        </button>
      </div>
      <ul className="mt-1 space-y-0.5">
        {lines.map((line, index) => (
          <li key={`${line.path}-${index}`} className={`break-words ${line.placed ? "text-slate-700" : "text-amber-800"}`}>
            <span className="font-medium">{line.path}</span> → {line.outcome}
          </li>
        ))}
      </ul>
    </section>
  );
}

function UploadProgressBar({ percent, phase, resuming }: { percent: number; phase: Phase; resuming: boolean }) {
  const detail =
    phase.state === "processing"
      ? `All ${formatBytes(phase.total)} sent; the server is checking the files…`
      : phase.state === "sending" && phase.total > 0
        ? `${formatBytes(phase.loaded)} of ${formatBytes(phase.total)} sent`
        : "Starting…";
  return (
    <div className="space-y-1 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <div className="flex items-baseline justify-between text-sm">
        <span id="upload-progress-label" className="font-medium">
          Upload progress
        </span>
        <span className="tabular-nums" aria-hidden>
          {percent} %
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="upload-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %: ${detail}`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width] duration-150" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-600">{detail}</p>
      {resuming ? (
        <p role="status" className="text-xs font-medium text-indigo-700">
          Resuming an earlier upload… The parts sent before are not sent again.
        </p>
      ) : null}
    </div>
  );
}

/** The form-level message for a refusal that names no field. */
function messageFor(problem: ApiProblem): string {
  if (problem.status === 0) return `${problem.message} Submitting the same form again is safe: it will not be uploaded twice.`;
  if (problem.status === 409) return `${problem.message} Submitting the same form again is safe.`;
  return problem.message;
}
