import type { FieldProblem } from "@/lib/console/api-client";
import type { TemplateKind } from "./template-rules";

// The upload form's state and what it sends (the multipart fields of lib/templates/receive-upload.ts
// and validate-upload.ts). Pure, so the rules are unit-tested: which files each kind sends, the
// Idempotency-Key's reuse, and where a server error is shown.

export type FileRole = "templateJson" | "manifestJson" | "overlayJson" | "videoFile" | "posterFile" | "assetFiles";
export type SingleFileRole = Exclude<FileRole, "assetFiles">;

export type UploadDraft = {
  name: string;
  version: string;
  kind: TemplateKind;
  files: Partial<Record<SingleFileRole, File>> & { assetFiles: File[] };
};

export const emptyDraft = (): UploadDraft => ({ name: "", version: "1.0", kind: "LottieStandalone", files: { assetFiles: [] } });

/**
 * The file fields each kind offers, in form order. A Raster template's templateJson is its
 * Lottie overlay; overlayJson (how it sits on the video) is Raster only, videoFile too.
 */
export const fileRolesByKind: Record<TemplateKind, readonly FileRole[]> = {
  LottieStandalone: ["templateJson", "manifestJson", "assetFiles", "posterFile"],
  Raster: ["videoFile", "templateJson", "manifestJson", "overlayJson", "posterFile", "assetFiles"],
};

/** The form's labels, which also name the fields an error can be shown next to. */
export const fieldLabels: Readonly<Record<"name" | "version" | "kind" | FileRole, string>> = {
  name: "Name",
  version: "Version",
  kind: "Kind",
  templateJson: "Lottie JSON",
  manifestJson: "Binding manifest",
  overlayJson: "Overlay settings",
  videoFile: "Video",
  posterFile: "Poster image",
  assetFiles: "Asset files",
};

/** The labels of the fields the kind's form shows (a Raster template's Lottie file is its overlay). */
export function labelsFor(kind: TemplateKind): Record<string, string> {
  const shown = ["name", "version", "kind", ...fileRolesByKind[kind]] as const;
  const labels: Record<string, string> = Object.fromEntries(shown.map((field) => [field, fieldLabels[field]]));
  if (kind === "Raster") labels.templateJson = "Lottie overlay";
  return labels;
}

/** The multipart body: text fields first (the server reads them before the files stream past), then this kind's files only. */
export function buildUploadForm(draft: UploadDraft): FormData {
  const form = new FormData();
  form.append("name", draft.name.trim());
  form.append("version", draft.version.trim());
  form.append("kind", draft.kind);
  for (const role of fileRolesByKind[draft.kind]) {
    if (role === "assetFiles") draft.files.assetFiles.forEach((file) => form.append("assetFiles", file, file.name));
    else if (draft.files[role]) form.append(role, draft.files[role], draft.files[role].name);
  }
  return form;
}

/** What must be there before anything is sent; every other rule is the server's, shown by field. */
export function missingFields(draft: UploadDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!draft.name.trim()) problems.push({ path: "name", message: "Give the template a name." });
  if (draft.kind === "LottieStandalone" && !draft.files.templateJson) {
    problems.push({ path: "templateJson", message: "A LottieStandalone template needs its Lottie JSON file." });
  }
  if (draft.kind === "Raster" && !draft.files.videoFile) problems.push({ path: "videoFile", message: "A Raster template needs its MP4 video." });
  return problems;
}

/**
 * What identifies one submission: the fields and each sent file's role, name, size and date.
 * The same fingerprint on a second submit is a retry of the same submission (same key).
 */
export function draftFingerprint(draft: UploadDraft): string {
  const describe = (file: File) => [file.name, file.size, file.lastModified];
  const files = fileRolesByKind[draft.kind].map((role) =>
    role === "assetFiles" ? draft.files.assetFiles.map(describe) : draft.files[role] ? describe(draft.files[role]) : null,
  );
  return JSON.stringify([draft.name.trim(), draft.version.trim(), draft.kind, files]);
}

/** 128 random bits as hex. crypto.randomUUID needs a secure context; a self-hosted console may be plain http. */
export function newIdempotencyKey(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  return `console-upload-${Array.from(random(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export type SubmissionAttempt = { key: string; fingerprint: string };

/** The attempt to send: the previous one again when the draft has not changed (a retry), else a new key. */
export function attemptFor(draft: UploadDraft, previous: SubmissionAttempt | null, mintKey: () => string = newIdempotencyKey): SubmissionAttempt {
  const fingerprint = draftFingerprint(draft);
  return previous?.fingerprint === fingerprint ? previous : { key: mintKey(), fingerprint };
}

export type GroupedProblems = { byField: Record<string, string[]>; other: string[] };

/**
 * The problem document's `errors` by form field, as sentences: the API words a message as the
 * rest of one ("must be major.minor…"), so a field's own error gets its label ("Version must be
 * major.minor…"), a nested one its path ("fields.0.key: duplicates…"), and an asset's names the
 * file already. A path that is no field of the form (the Idempotency-Key, the whole body) goes
 * to the form's own list.
 */
export function groupProblems(problems: readonly FieldProblem[], labels: Readonly<Record<string, string>>): GroupedProblems {
  const grouped: GroupedProblems = { byField: {}, other: [] };
  for (const { path, message } of problems) {
    const [head = "", ...tail] = path.split(".");
    const rest = tail.join(".");
    const label = labels[head];
    if (label === undefined) grouped.other.push(path ? `${path} ${message}` : message);
    else (grouped.byField[head] ??= []).push(!rest ? `${label} ${message}` : /^\d+$/.test(rest) ? message : `${rest}: ${message}`);
  }
  return grouped;
}
