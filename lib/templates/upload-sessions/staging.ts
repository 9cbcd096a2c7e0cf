import path from "node:path";
import { ValidationError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { hasErrorCode } from "@/lib/error-code";
import type { schema } from "@/lib/db";
import type { UploadSessionFile } from "@/lib/db/schema";
import { processWide } from "@/lib/process-wide";
import { LocalPartStaging } from "@/lib/storage/local-parts";
import { getS3Staging, MultipartRefusedError, type S3MultipartStaging } from "@/lib/storage/s3-multipart";
import { signUrlSubject, verifyUrlSubject } from "@/lib/tokens/signed-url";
import { deleteUploadThingFiles, openUploadThingFile } from "@/lib/uploadthing/files";
import { storePart, type ReceivedFile } from "../receive-upload";
import type { FileRole } from "../contract";
import { partsOf, type CompleteUploadSessionBody, type DeclaredFile, type UploadSessionProvider } from "./contract";

// Where a session's bytes wait, per provider (docs/direct-uploads.md): an S3 multipart upload per
// file, the app's own part files under DATA_DIR/uploads, or UploadThing. Everything here works on
// one session row; the verbs in sessions.ts and complete.ts decide when.

export type UploadSessionRow = typeof schema.templateUploadSessions.$inferSelect;
export type PartLink = { partNumber: number; size: number; url: string };
export type UploadedPart = { partNumber: number; size: number };

const partUrlPurpose = "upload-part";
/** S3 refuses presigned URLs valid for more than a week. */
const maxPresignSeconds = 7 * 24 * 3600;

export function localStaging(): LocalPartStaging {
  return processWide("local-part-staging", () => new LocalPartStaging(path.join(getConfig().dataDir, "uploads")));
}

function s3Staging(): S3MultipartStaging {
  const { storage } = getConfig();
  if (storage.driver !== "s3") throw new Error("An S3 upload session needs STORAGE_DRIVER=s3.");
  return getS3Staging(storage);
}

/** The provider a new session uses under the current configuration. */
export function currentProvider(): UploadSessionProvider {
  const config = getConfig();
  if (config.uploadMode === "uploadthing") return "uploadthing";
  return config.storage.driver;
}

/** Starts what each file needs before its bytes arrive (S3: a multipart upload); on failure, undoes what it started. */
export async function prepareFiles(provider: UploadSessionProvider, sessionId: string, files: DeclaredFile[]): Promise<UploadSessionFile[]> {
  if (provider !== "s3") return files.map((file) => ({ ...file }));
  const s3 = s3Staging();
  const prepared: UploadSessionFile[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const key = s3.stagingKey(sessionId, index);
      prepared.push({ ...file, s3: { key, uploadId: await s3.create(key, file.type) } });
    }
    return prepared;
  } catch (error) {
    await Promise.allSettled(prepared.map((file) => s3.abort(file.s3!.key, file.s3!.uploadId)));
    throw error;
  }
}

/** Where the client sends each part of file `index`, valid until the session expires. */
export async function partLinks(row: UploadSessionRow, index: number, now = Date.now()): Promise<PartLink[]> {
  const file = row.files[index]!;
  const { count, sizeOf } = partsOf(file.size, row.partSize);
  const expires = Math.floor(row.expiresAt.getTime() / 1000);
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  if (row.provider === "s3") {
    const seconds = Math.min(maxPresignSeconds, Math.max(60, expires - Math.floor(now / 1000)));
    const s3 = s3Staging();
    return Promise.all(numbers.map(async (partNumber) => ({ partNumber, size: sizeOf(partNumber), url: await s3.partUrl(file.s3!.key, file.s3!.uploadId, partNumber, seconds) })));
  }
  const base = getConfig().publicBaseUrl;
  return numbers.map((partNumber) => {
    const signed = signUrlSubject(partUrlPurpose, `${row.id}/${index}/${partNumber}`, expires);
    return { partNumber, size: sizeOf(partNumber), url: `${base}/api/uploads/${row.id}/files/${index}/parts/${partNumber}?expires=${signed.expires}&signature=${signed.signature}` };
  });
}

export function verifyPartUrl(sessionId: string, index: number, partNumber: number, expires: string | null, signature: string | null): boolean {
  return verifyUrlSubject(partUrlPurpose, `${sessionId}/${index}/${partNumber}`, expires, signature, getConfig().uploadSessionTtlSeconds);
}

/** The parts the app knows were received: the local provider's files; S3 keeps the client's ETags. */
export async function uploadedParts(row: UploadSessionRow, index: number): Promise<UploadedPart[]> {
  return row.provider === "local" ? localStaging().listParts(row.id, index) : [];
}

const notSent = (row: UploadSessionRow, index: number, message: string) =>
  new ValidationError([{ path: `files.${index}`, message: `${row.files[index]!.name} ${message}` }]);

/**
 * 422 unless every part of file `index` was sent: the local provider's part files have the
 * right sizes; for S3, the completion lists an ETag for each part (S3 checks them when assembling).
 * Checked for all files before any is assembled, so a refused completion changes nothing.
 */
export async function assertSentWhole(row: UploadSessionRow, index: number, completion: CompleteUploadSessionBody): Promise<void> {
  const { count, sizeOf } = partsOf(row.files[index]!.size, row.partSize);
  const all = Array.from({ length: count }, (_, i) => i + 1);
  if (row.provider === "local") {
    const parts = await localStaging().listParts(row.id, index);
    const missing = all.filter((n) => parts.find((part) => part.partNumber === n)?.size !== sizeOf(n));
    if (missing.length > 0) throw notSent(row, index, `was not sent whole: part${missing.length > 1 ? "s" : ""} ${missing.join(", ")} of ${count} missing`);
  } else if (row.provider === "s3") {
    const listed = completion.files.find((entry) => entry.index === index)?.parts ?? [];
    const numbers = new Set(listed.map((part) => part.partNumber));
    const missing = all.filter((n) => !numbers.has(n));
    if (missing.length > 0) throw notSent(row, index, `was not sent whole: the completion lists no ETag for part${missing.length > 1 ? "s" : ""} ${missing.join(", ")} of ${count}`);
    if (listed.length !== count) throw notSent(row, index, "is listed with a part more than once in the completion");
  } else if (!row.files[index]!.uploadthing) {
    throw notSent(row, index, "has not reached UploadThing yet (or UploadThing has not called the app back)");
  }
}

/**
 * Brings file `index` of the session into blob storage, read once: its SHA-256 (content
 * address), first bytes (type) and, for JSON, its text — the same ReceivedFile a multipart
 * upload yields. The staging stays until the session ends (discardStaging), so that a
 * completion that fails half-way can be retried.
 */
export async function receiveStagedFile(row: UploadSessionRow, index: number, completion: CompleteUploadSessionBody): Promise<ReceivedFile> {
  const file = row.files[index]!;
  const role = file.role as FileRole;
  if (row.provider === "local") return storePart(role, file.name, localStaging().read(row.id, index, partsOf(file.size, row.partSize).count));
  if (row.provider === "s3") {
    const s3 = s3Staging();
    const { key, uploadId } = file.s3!;
    // Assembled already by an earlier attempt of this completion: S3 has forgotten the upload id.
    if ((await s3.size(key)) === null) {
      const parts = completion.files.find((entry) => entry.index === index)!.parts;
      try {
        await s3.complete(key, uploadId, [...parts].sort((a, b) => a.partNumber - b.partNumber));
      } catch (error) {
        if (hasErrorCode(error, "MULTIPART_REFUSED")) throw notSent(row, index, `cannot be assembled: ${(error as MultipartRefusedError).message}`);
        throw error;
      }
    }
    return storePart(role, file.name, await s3.open(key), (chunks) => s3.adopt(key, chunks));
  }
  return storePart(role, file.name, await openUploadThingFile(file.uploadthing!));
}

/** Removes whatever the session staged (best effort per file; the sweep retries what is left). */
export async function discardStaging(row: UploadSessionRow): Promise<void> {
  if (row.provider === "local") return localStaging().discard(row.id);
  if (row.provider === "uploadthing") return deleteUploadThingFiles(row.files.flatMap((file) => (file.uploadthing ? [file.uploadthing.key] : [])));
  if (row.provider === "s3") {
    const s3 = s3Staging();
    await Promise.allSettled(row.files.map(async (file) => {
      await s3.abort(file.s3!.key, file.s3!.uploadId);
      await s3.delete(file.s3!.key);
    }));
  }
}
