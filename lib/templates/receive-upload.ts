import { Readable } from "node:stream";
import busboy from "busboy";
import { BadRequestError, isAppError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, type FieldError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { getBlobStore, type StoredBlob } from "@/lib/storage";
import { maxUploadBytes, singleFileRoles, type FileRole } from "./contract";
import { detectFileType, type DetectedType } from "./file-types";
import { deleteUnreferencedBlobs } from "./template-blobs";

/** JSON parts are also kept in memory to be parsed; larger ones are refused. */
export const maxJsonFileBytes = 64 * 1024 * 1024;
export const jsonRoles = new Set<FileRole>(["templateJson", "manifestJson", "overlayJson"]);
const fileRoles = new Set<string>([...singleFileRoles, "assetFiles"]);

export type ReceivedFile = {
  role: FileRole;
  name: string;
  size: number;
  sha256: string;
  storageKey: string;
  /** True when this upload wrote the blob (it did not exist before): only those are removed on failure. */
  created: boolean;
  type: DetectedType | null;
  /** The bytes of a JSON part, as UTF-8 text. */
  text?: string;
};

export type ReceivedUpload = { fields: Record<string, string>; files: ReceivedFile[] };

/** Keeps a file name to a safe basename: letters, digits, dot, dash, underscore; no leading dot. */
export function sanitizeFileName(raw: string | undefined, fallback: string): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  const safe = base
    .normalize("NFKC")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(-128);
  return safe || fallback;
}

/**
 * Streams a multipart/form-data body into blob storage, part by part, never holding a whole
 * file in memory (except JSON parts, capped). The total body is limited to 250 MB: by
 * Content-Length before reading, and by counting bytes as they arrive. On any failure the
 * blobs this upload created are deleted and nothing else remains.
 */
export async function receiveUpload(db: Db, req: Request): Promise<ReceivedUpload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError("Upload a template as multipart/form-data.");
  }
  if (Number(req.headers.get("content-length") ?? 0) > maxUploadBytes) throw tooLarge();
  if (!req.body) throw new BadRequestError("The upload has no body.");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fields: 20, fieldSize: 16 * 1024, files: 500, parts: 520, fieldNameSize: 100 },
    });
  } catch (error) {
    throw new BadRequestError(`The multipart body cannot be read: ${(error as Error).message}.`);
  }

  const fields: Record<string, string> = {};
  const errors: FieldError[] = [];
  const pending: Promise<ReceivedFile>[] = [];
  const streams = new Set<Readable>();
  let failure: unknown = null;
  let abort!: (error: unknown) => void;
  const aborted = new Promise<never>((_, reject) => (abort = reject));
  aborted.catch(() => {});
  // The first failure stops everything: the body is no longer read and every part being stored is cancelled.
  const fail = (error: unknown) => {
    if (failure) return;
    failure = error;
    abort(error);
    for (const stream of streams) stream.destroy(error as Error);
    parser.destroy();
  };

  // busboy passes no name for a part whose Content-Disposition has none: its error is the whole form's (path "").
  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) errors.push({ path: name ?? "", message: "is too long" });
    else if (name in fields) errors.push({ path: name ?? "", message: "appears more than once" });
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (!fileRoles.has(name)) {
      errors.push({ path: name ?? "", message: `is not a file field of a template (${[...fileRoles].join(", ")})` });
      // Skipped, but busboy still ends it with an error when the body is cut short: the parser's own error answers that.
      stream.on("error", () => {});
      stream.resume();
      return;
    }
    // Until storage starts reading it, a destroyed part stream would have no error listener: the error is fail()'s own.
    stream.on("error", () => {});
    streams.add(stream);
    const stored = storePart(name as FileRole, info.filename, stream).finally(() => streams.delete(stream));
    stored.catch(fail);
    pending.push(stored);
  });
  parser.on("filesLimit", () => errors.push({ path: "assetFiles", message: "too many files" }));
  parser.on("fieldsLimit", () => errors.push({ path: "", message: "too many fields" }));

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", (error: Error) => reject(new BadRequestError(`The multipart body is malformed: ${error.message}.`)));
  });

  try {
    await Promise.race([Promise.all([pump(req.body, parser, aborted), parsed]), aborted]);
  } catch (error) {
    fail(error);
  }
  const settled = await Promise.allSettled(pending);
  const files = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  if (!failure && errors.length > 0) failure = new ValidationError(errors);
  if (failure) {
    await discardReceivedFiles(db, files);
    throw failure;
  }
  return { fields, files };
}

/** Feeds the request body to the parser, counting bytes; stops at the size limit or when aborted. */
async function pump(body: ReadableStream<Uint8Array>, parser: busboy.Busboy, aborted: Promise<never>) {
  let total = 0;
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxUploadBytes) throw tooLarge();
      if (!parser.write(chunk)) await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), aborted]);
    }
  } catch (error) {
    throw isAppError(error, "payload_too_large") ? error : new BadRequestError("The upload was interrupted before it ended.");
  }
  parser.end();
}

/**
 * Streams one part to storage, noting its size, hash, detected type and (JSON parts) its text.
 * `put` stores the bytes: the blob store by default; a direct upload's staged object is adopted instead.
 */
export async function storePart(
  role: FileRole,
  filename: string | undefined,
  stream: AsyncIterable<Uint8Array>,
  put: (chunks: AsyncIterable<Uint8Array>) => Promise<StoredBlob> = (chunks) => getBlobStore().put(chunks),
): Promise<ReceivedFile> {
  const head: Uint8Array[] = [];
  let headSize = 0;
  const json: Uint8Array[] | null = jsonRoles.has(role) ? [] : null;
  let size = 0;
  async function* tap() {
    for await (const chunk of stream) {
      size += chunk.byteLength;
      if (headSize < 64) {
        head.push(chunk);
        headSize += chunk.byteLength;
      }
      if (json) {
        if (size > maxJsonFileBytes) throw new ValidationError([{ path: role, message: `is larger than ${maxJsonFileBytes / 1024 / 1024} MB` }]);
        json.push(chunk);
      }
      yield chunk;
    }
  }
  const stored = await put(tap());
  return {
    role,
    name: sanitizeFileName(filename, role),
    size: stored.size,
    sha256: stored.sha256,
    storageKey: stored.key,
    created: stored.created,
    type: detectFileType(Buffer.concat(head)),
    text: json ? Buffer.concat(json).toString("utf8") : undefined,
  };
}

/** Removes the blobs this upload created, unless a template committed meanwhile references the same content. */
export async function discardReceivedFiles(db: Db, files: ReceivedFile[]): Promise<void> {
  await deleteUnreferencedBlobs(
    db,
    files.filter((file) => file.created).map((file) => file.storageKey),
  );
}

function tooLarge() {
  return new PayloadTooLargeError(`A template upload is limited to ${maxUploadBytes.toLocaleString("en-US")} bytes (250 MB).`);
}
