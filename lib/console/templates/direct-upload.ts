import { ApiProblem, apiRequest, problemFrom, type FieldProblem } from "@/lib/console/api-client";
import type { UploadProgress, UploadResponse } from "@/lib/console/upload-request";
import type { UploadThingRouter } from "@/lib/uploadthing/file-router";
import type { UploadedTemplateJson } from "./template-rules";
import { draftFingerprint, fileRolesByKind, type FileRole, type UploadDraft } from "./upload-draft";

// The upload form's direct path (docs/direct-uploads.md): declare the files in an upload
// session, send each part straight to where the session says (a presigned S3 URL, the app's own
// part route, or UploadThing), then ask the app to complete. Same contract as
// uploadWithProgress: resolves with the created template, rejects with an ApiProblem or an
// AbortError. A reload resumes: the session id and the ETags of the parts sent are kept in
// localStorage under the draft's fingerprint, so submitting the same files again sends only
// what is missing.

export type UploadSessionStatus = "open" | "completing" | "completed" | "failed" | "cancelled" | "expired";
export type UploadSessionPart = { partNumber: number; size: number; url: string };
/** A part the app has (the local provider knows them; for S3 the client keeps its ETags). */
export type UploadedPart = { partNumber: number; size: number; etag?: string };
export type UploadSessionFile = {
  index: number;
  role: FileRole;
  name: string;
  size: number;
  type: string;
  parts?: UploadSessionPart[];
  uploadedParts?: UploadedPart[];
  uploadthing?: { endpoint: keyof UploadThingRouter; input: { sessionId: string; fileIndex: number } };
  uploaded?: boolean;
};
export type UploadSession = {
  id: string;
  status: UploadSessionStatus;
  provider: "s3" | "local" | "uploadthing";
  expiresAt: string;
  partSize: number;
  files: UploadSessionFile[];
  templateId?: string | null;
  /** Why a failed session's files were refused: the problem document the completion answered. */
  problem?: unknown;
};

/** One file of the draft as the session declares it; `index` is its place in the session. */
export type DeclaredFile = { index: number; role: FileRole; file: File };

/** The draft's files in form order (the kind's roles, assets in the order picked): the session's file indexes. */
export function declaredFiles(draft: UploadDraft): DeclaredFile[] {
  const files: Omit<DeclaredFile, "index">[] = [];
  for (const role of fileRolesByKind[draft.kind]) {
    if (role === "assetFiles") draft.files.assetFiles.forEach((file) => files.push({ role, file }));
    else if (draft.files[role]) files.push({ role, file: draft.files[role] });
  }
  return files.map((entry, index) => ({ ...entry, index }));
}

/** POST …/templates/uploads' body. */
export function sessionRequest(draft: UploadDraft) {
  return {
    fields: { name: draft.name.trim(), version: draft.version.trim(), kind: draft.kind },
    files: declaredFiles(draft).map(({ role, file }) => ({ role, name: file.name, size: file.size, type: file.type || "application/octet-stream" })),
  };
}

/**
 * The session's refusals as the form's fields name them: `files.3.size` is the file's role
 * (an asset's own entry, named by file), `fields.version` is `version`. Everything else is kept.
 */
export function formProblems(problems: readonly FieldProblem[], files: readonly DeclaredFile[]): FieldProblem[] {
  return problems.map(({ path, message }) => {
    const field = /^fields\.(\w+)$/.exec(path);
    if (field) return { path: field[1]!, message };
    const fileMatch = /^files\.(\d+)(?:\.(.+))?$/.exec(path);
    const declared = fileMatch ? files[Number(fileMatch[1])] : undefined;
    if (!fileMatch || !declared) return { path, message };
    const detail = fileMatch[2] ? `${fileMatch[2]} ${message}` : message;
    if (declared.role !== "assetFiles") return { path: declared.role, message: detail };
    const assetIndex = files.filter((file) => file.role === "assetFiles").indexOf(declared);
    // An asset's message names its file (the form lists several under one field).
    return { path: `assetFiles.${assetIndex}`, message: detail.startsWith(declared.file.name) ? detail : `${declared.file.name}: ${detail}` };
  });
}

/** ETags of the parts sent, by file index and part number. */
export type PartEtags = Record<number, Record<number, string>>;
export type SavedUpload = { sessionId: string; etags: PartEtags };
export type ResumeStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** A short, stable hash (FNV-1a, 2 × 32 bits): crypto.subtle needs a secure context, a self-hosted console may be plain http. */
function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** Where a draft's unfinished upload is remembered: the project and the draft's fingerprint (fields, each file's role, name, size and date). */
export function resumeKey(projectId: string, draft: UploadDraft): string {
  return `reelbind:direct-upload:${projectId}:${hashText(draftFingerprint(draft))}`;
}

function resumeStore(storage: ResumeStorage | undefined, key: string) {
  // Private windows and full quotas throw; resuming is a convenience, the upload goes on without it.
  const attempt = <T>(action: () => T, fallback: T): T => {
    try {
      return storage ? action() : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    read: (): SavedUpload | null =>
      attempt(() => {
        const saved = JSON.parse(storage!.getItem(key) ?? "null") as SavedUpload | null;
        return saved && typeof saved.sessionId === "string" && typeof saved.etags === "object" && saved.etags !== null ? saved : null;
      }, null),
    write: (saved: SavedUpload) => attempt(() => storage!.setItem(key, JSON.stringify(saved)), undefined),
    clear: () => attempt(() => storage!.removeItem(key), undefined),
  };
}

/**
 * Where the browser sends a part: the app's own part route (local storage) by path, so that it
 * stays same-origin when the console is opened under another name than PUBLIC_BASE_URL; a
 * presigned S3 URL as it is (its host is signed).
 */
export function partTarget(session: Pick<UploadSession, "provider">, url: string): string {
  if (session.provider !== "local") return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A part still to send. */
export type PendingPart = { fileIndex: number; file: File; partNumber: number; start: number; size: number; url: string };

/** The parts not sent yet: no ETag kept for them, and not among the session's `uploadedParts` (which the local provider knows) at their full size. */
export function pendingParts(session: UploadSession, files: readonly DeclaredFile[], etags: PartEtags): PendingPart[] {
  const pending: PendingPart[] = [];
  for (const sessionFile of session.files) {
    const known = (etags[sessionFile.index] ??= {});
    const file = files[sessionFile.index]!.file;
    for (const part of sessionFile.parts ?? []) {
      const uploaded = sessionFile.uploadedParts?.find((entry) => entry.partNumber === part.partNumber && entry.size === part.size);
      if (uploaded) known[part.partNumber] ??= uploaded.etag ?? "";
      if (known[part.partNumber] !== undefined) continue;
      pending.push({ fileIndex: sessionFile.index, file, partNumber: part.partNumber, start: (part.partNumber - 1) * session.partSize, size: part.size, url: partTarget(session, part.url) });
    }
  }
  return pending;
}

/** POST …/complete's body: for S3, every part of every file with its ETag, in order; the app knows the other providers' files itself. */
export function completionRequest(session: UploadSession, etags: PartEtags) {
  if (session.provider !== "s3") return {};
  return {
    files: session.files.map((file) => ({
      index: file.index,
      parts: (file.parts ?? []).map(({ partNumber }) => ({ partNumber, etag: etags[file.index]?.[partNumber] ?? "" })),
    })),
  };
}

export type DirectUploadOptions = {
  projectId: string;
  draft: UploadDraft;
  /** POST …/uploads' Idempotency-Key: a retried submission gets the same session back. */
  idempotencyKey: string;
  signal: AbortSignal;
  onProgress: (progress: UploadProgress) => void;
  /** Called when an earlier upload of the same draft is picked up. */
  onResume?: () => void;
  /** Default: localStorage. */
  storage?: ResumeStorage;
};

const uploadsPath = (projectId: string) => `/api/Projects/${encodeURIComponent(projectId)}/templates/uploads`;
const sessionPath = (projectId: string, sessionId: string) => `${uploadsPath(projectId)}/${encodeURIComponent(sessionId)}`;
const abortError = () => new DOMException("The upload was cancelled.", "AbortError");
const networkProblem = (detail: string) => new ApiProblem({ status: 0, code: "network_error", title: "Network error", detail });

/** Sends the draft through an upload session (resuming an earlier one of the same draft) and completes it. */
export async function uploadDirect(options: DirectUploadOptions): Promise<UploadResponse<UploadedTemplateJson>> {
  const { projectId, draft, signal } = options;
  const files = declaredFiles(draft);
  const store = resumeStore(options.storage ?? (typeof localStorage === "undefined" ? undefined : localStorage), resumeKey(projectId, draft));
  let sessionId: string | null = null;
  let completing = false;
  try {
    let session: UploadSession | null = null;
    let etags: PartEtags = {};
    const saved = store.read();
    if (saved) {
      session = await resumableSession(projectId, saved.sessionId, files, signal);
      if (session) {
        etags = saved.etags;
        options.onResume?.();
      } else store.clear();
    }
    if (!session) {
      session = await apiRequest<UploadSession>(uploadsPath(projectId), {
        method: "POST",
        json: sessionRequest(draft),
        headers: { "Idempotency-Key": options.idempotencyKey },
        signal,
      }).catch((error: unknown) => {
        throw withFormPaths(error, files);
      });
      // The same submission again (its Idempotency-Key) gets its session back: refused files are refused again.
      if (session.status === "failed") throw sessionProblem(session, files);
      store.write({ sessionId: session.id, etags });
    }
    sessionId = session.id;
    const total = files.reduce((sum, { file }) => sum + file.size, 0);
    if (session.status === "open") {
      const report = monotonic(options.onProgress, total);
      if (session.provider === "uploadthing") await sendWithUploadThing(session, files, signal, report);
      else await sendParts(session, files, etags, signal, report, () => store.write({ sessionId: session.id, etags }));
    }
    options.onProgress({ loaded: total, total });
    completing = true;
    const response = await complete(projectId, session, etags, signal).catch((error: unknown) => {
      throw withFormPaths(error, files);
    });
    store.clear();
    return response;
  } catch (error) {
    if (signal.aborted) {
      store.clear();
      if (sessionId) await cancelSession(projectId, sessionId);
      throw abortError();
    }
    // A refused completion is final (a failed session, or a file the app never got); a network
    // failure is resumed, and so is a completion another request is still running (409).
    if (completing && error instanceof ApiProblem && error.status >= 400 && error.status < 500 && error.status !== 409) store.clear();
    throw error;
  }
}

/** The problem with the API's file paths (`files.3`) turned into the form's fields. */
function withFormPaths(error: unknown, files: readonly DeclaredFile[]): unknown {
  if (!(error instanceof ApiProblem) || error.errors.length === 0) return error;
  return new ApiProblem({ status: error.status, code: error.code, title: error.title, detail: error.message, errors: formProblems(error.errors, files) });
}

/** A failed session's stored refusal, as the completion answered it then. */
function sessionProblem(session: UploadSession, files: readonly DeclaredFile[]): unknown {
  const document = typeof session.problem === "object" && session.problem !== null ? (session.problem as { status?: unknown }) : {};
  return withFormPaths(problemFrom(typeof document.status === "number" ? document.status : 422, session.problem), files);
}

/** The remembered session when it can still be finished with these files: open or already completed, the same files declared. */
async function resumableSession(projectId: string, sessionId: string, files: readonly DeclaredFile[], signal: AbortSignal): Promise<UploadSession | null> {
  let session: UploadSession;
  try {
    session = await apiRequest<UploadSession>(sessionPath(projectId, sessionId), { signal });
  } catch (error) {
    if (error instanceof ApiProblem && error.status >= 400 && error.status < 500) return null;
    throw error;
  }
  const sameFiles =
    session.files.length === files.length && session.files.every((declared) => declared.size === files[declared.index]?.file.size && declared.role === files[declared.index]?.role);
  // A completing session is being finished by an earlier request: completing again answers its 201, or a 409 until it is done.
  return (session.status === "open" || session.status === "completing" || session.status === "completed") && sameFiles ? session : null;
}

/** POST …/complete: 201 with the template (Idempotent-Replayed when the session was completed before). */
async function complete(projectId: string, session: UploadSession, etags: PartEtags, signal: AbortSignal): Promise<UploadResponse<UploadedTemplateJson>> {
  let response: Response;
  try {
    response = await fetch(`${sessionPath(projectId, session.id)}/complete`, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(completionRequest(session, etags)),
      signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw networkProblem("The server could not be reached to finish the upload; check the connection and try again.");
  }
  const body = parseJson(await response.text());
  if (!response.ok) throw problemFrom(response.status, body);
  return { status: response.status, body: body as UploadedTemplateJson, replayed: response.headers.get("Idempotent-Replayed") === "true" };
}

/** DELETE the session: the storage drops what was sent. Best effort: the sweep removes it at expiry otherwise. */
async function cancelSession(projectId: string, sessionId: string) {
  try {
    await apiRequest<void>(sessionPath(projectId, sessionId), { method: "DELETE", signal: AbortSignal.timeout(10_000) });
  } catch {
    // Already completed, cancelled or expired, or the server is unreachable: nothing more to do here.
  }
}

type Report = (loaded: number) => void;

/**
 * Progress while parts are sent: it never goes back (a retried part starts again from zero), and
 * stops a byte short of the total, because bytes written to the connection are not yet stored:
 * the form shows "all sent" (and disables Cancel) once the last part is acknowledged.
 */
function monotonic(onProgress: (progress: UploadProgress) => void, total: number): Report {
  let shown = 0;
  return (loaded) => {
    const capped = Math.min(loaded, total - 1);
    if (capped <= shown) return;
    shown = capped;
    onProgress({ loaded: shown, total });
  };
}

/** How many parts are sent at once. */
const partsInFlight = 3;
/** Retries of one part after a network error or a 5xx, with backoff. */
const partRetries = 5;

/**
 * Runs `work` on every item, `partsInFlight` at a time. The first failure stops the rest (their
 * requests are aborted) and is what rejects; the caller's abort rejects with an AbortError.
 */
async function inPool<T>(items: T[], signal: AbortSignal, work: (item: T, signal: AbortSignal) => Promise<void>) {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const worker = async () => {
    for (let item = items.shift(); item !== undefined; item = items.shift()) await work(item, stop.signal);
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(partsInFlight, items.length) }, () =>
        worker().catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  if (signal.aborted) throw abortError();
}

/** Sends every pending part; each ETag is recorded (and `save`d) as its part succeeds. */
async function sendParts(session: UploadSession, files: readonly DeclaredFile[], etags: PartEtags, signal: AbortSignal, report: Report, save: () => void) {
  const queue = pendingParts(session, files, etags);
  const total = files.reduce((sum, { file }) => sum + file.size, 0);
  let done = total - queue.reduce((sum, part) => sum + part.size, 0);
  const inFlight = new Map<PendingPart, number>();
  const show = () => report(done + [...inFlight.values()].reduce((sum, loaded) => sum + loaded, 0));
  show();
  // The app's own part route (local provider) needs no ETag back; S3 does, for CompleteMultipartUpload.
  const needsEtag = session.provider === "s3";
  await inPool(queue, signal, async (part, stop) => {
    inFlight.set(part, 0);
    const etag = await sendPartWithRetries(part, needsEtag, stop, (loaded) => {
      inFlight.set(part, loaded);
      show();
    });
    inFlight.delete(part);
    done += part.size;
    etags[part.fileIndex]![part.partNumber] = etag;
    save();
    show();
  });
}

/** One part, sent again after a dropped connection or a 5xx (the last one sent wins). Resolves with its ETag. */
async function sendPartWithRetries(part: PendingPart, needsEtag: boolean, signal: AbortSignal, onLoaded: (loaded: number) => void): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const result = await putPart(part, signal, onLoaded);
    if (result.ok) {
      if (result.etag === null && needsEtag) {
        throw new ApiProblem({
          status: 0,
          code: "storage_cors",
          title: "Storage configuration",
          detail: `The storage accepted ${part.file.name} but did not show its ETag: the bucket's CORS configuration must expose the ETag header.`,
        });
      }
      return result.etag ?? "";
    }
    const retryable = result.status === 0 || result.status >= 500 || result.status === 408 || result.status === 429;
    if (!retryable || attempt >= partRetries) {
      const detail =
        result.status === 0
          ? `Part ${part.partNumber} of ${part.file.name} could not be sent; check the connection and try again: the parts already sent are kept.`
          : `The storage refused part ${part.partNumber} of ${part.file.name} (${result.status}).`;
      throw new ApiProblem({ status: result.status >= 500 ? 0 : result.status, code: "part_upload_failed", title: "Upload failed", detail });
    }
    onLoaded(0);
    await delay(Math.min(500 * 2 ** attempt, 8_000) * (0.5 + Math.random() / 2), signal);
  }
}

type PartResult = { ok: true; etag: string | null } | { ok: false; status: number };

/** PUT one part's bytes with XMLHttpRequest (fetch cannot report upload progress). Rejects only with an AbortError. */
function putPart(part: PendingPart, signal: AbortSignal, onLoaded: (loaded: number) => void): Promise<PartResult> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = (result: PartResult) => {
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    xhr.open("PUT", part.url);
    xhr.upload.onprogress = (event) => onLoaded(event.loaded);
    xhr.onload = () => settle(xhr.status >= 200 && xhr.status < 300 ? { ok: true, etag: xhr.getResponseHeader("ETag") } : { ok: false, status: xhr.status });
    xhr.onerror = () => settle({ ok: false, status: 0 });
    xhr.ontimeout = () => settle({ ok: false, status: 0 });
    xhr.onabort = () => {
      signal.removeEventListener("abort", onAbort);
      reject(abortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    // A slice has no type, so no Content-Type goes along: the presigned URL signs none.
    xhr.send(part.file.slice(part.start, part.start + part.size));
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Sends each file not yet uploaded through UploadThing, one request per file (each has its own input). */
async function sendWithUploadThing(session: UploadSession, files: readonly DeclaredFile[], signal: AbortSignal, report: Report) {
  const { genUploader } = await import("uploadthing/client");
  const { uploadFiles } = genUploader<UploadThingRouter>({ url: "/api/uploadthing" });
  const queue = session.files.filter((file) => !file.uploaded && file.uploadthing);
  const total = files.reduce((sum, { file }) => sum + file.size, 0);
  const loadedByFile = new Map<number, number>();
  let done = total - queue.reduce((sum, file) => sum + file.size, 0);
  const show = () => report(done + [...loadedByFile.values()].reduce((sum, loaded) => sum + loaded, 0));
  await inPool(queue, signal, async ({ index, size, uploadthing }, stop) => {
    const { file } = files[index]!;
    loadedByFile.set(index, 0);
    try {
      await uploadFiles(uploadthing!.endpoint, {
        files: [file],
        input: uploadthing!.input,
        signal: stop,
        onUploadProgress: ({ loaded }) => {
          loadedByFile.set(index, loaded);
          show();
        },
      });
    } catch (error) {
      if (stop.aborted) throw abortError();
      // The app's route refuses with a problem document, which UploadThing's client keeps as the error's data.
      const data = (error as { data?: unknown }).data;
      const status = typeof data === "object" && data !== null ? (data as { status?: unknown }).status : undefined;
      if (typeof status === "number" && status >= 400 && status < 500) throw withFormPaths(problemFrom(status, data), files);
      throw networkProblem(`${file.name} could not be sent to UploadThing (${(error as Error).message}); try again: the files already sent are kept.`);
    }
    loadedByFile.delete(index);
    done += size;
    show();
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
