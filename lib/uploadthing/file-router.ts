import { createUploadthing, type FileRouter } from "uploadthing/next";
import { UploadThingError } from "uploadthing/server";
import { z } from "zod";
import { problemOf, toLoggedAppError } from "@/lib/api/errors";
import { AppError, BadRequestError, isAppError, isCallerError, toAppError, type ErrorKind } from "@/lib/errors";
import { requireSameOrigin } from "@/lib/api/same-origin";
import { authenticate } from "@/lib/auth/authenticate";
import { getDb } from "@/lib/db";
import { deleteUploadThingFiles } from "./files";
import { recordUploadThingFile, requireDeclaredUploadThingFile } from "./upload-session-files";

// The console's UploadThing uploads (docs/direct-uploads.md): one file of an open upload
// session per upload. The middleware runs before UploadThing hands out a presigned URL;
// onUploadComplete runs when UploadThing's signed callback says the file is stored.

/** UploadThing's error codes for our statuses; the route puts the exact status back (app/api/uploadthing/route.ts). */
const uploadThingCodes: Partial<Record<ErrorKind, UploadThingError["code"]>> = {
  bad_request: "BAD_REQUEST",
  unauthorized: "FORBIDDEN",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  payload_too_large: "TOO_LARGE",
};

const sdkErrorKinds: Partial<Record<UploadThingError["code"], ErrorKind>> = {
  BAD_REQUEST: "bad_request",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  TOO_LARGE: "payload_too_large",
  TOO_SMALL: "bad_request",
  TOO_MANY_FILES: "bad_request",
  KEY_TOO_LONG: "bad_request",
};

function toUploadThingError(error: unknown): UploadThingError {
  const appError = toLoggedAppError(error);
  const code = uploadThingCodes[appError.kind] ?? (isCallerError(appError) ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR");
  return new UploadThingError({ code, message: appError.message, cause: appError });
}

/** An error the SDK caught as an AppError: ours as we threw it, a zod input error as a 422, the SDK's own by its code. */
function appErrorOf(error: UploadThingError): AppError {
  if (isAppError(error.cause)) return error.cause;
  const fromCause = toAppError(error.cause);
  if (isCallerError(fromCause)) return fromCause;
  const kind = sdkErrorKinds[error.code];
  if (!kind) return toLoggedAppError(error);
  // The SDK puts the reason of a refusal ("Invalid config: FileSizeMismatch") in the cause.
  const reason = (error.cause as { message?: unknown } | undefined)?.message;
  const detail = typeof reason === "string" && reason !== error.message ? `${error.message}: ${reason}` : error.message;
  return new AppError(kind, `uploadthing_${error.code.toLowerCase()}`, "Upload refused", detail);
}

/**
 * The problem document of an error, with `message` beside `detail`: UploadThing's client shows
 * an error's `message` (RFC 9457 allows extension members).
 */
export function formatUploadThingError(error: UploadThingError) {
  const appError = appErrorOf(error);
  return { ...(JSON.parse(problemOf(appError).body) as Record<string, unknown>), message: appError.message };
}

const f = createUploadthing({ errorFormatter: formatUploadThingError });

/** Largest power of two UploadThing's size syntax takes above a template upload's 250 MB; the declared size is the real limit. */
const maxFileSize = "256MB";

export const templateFilesInput = z.object({ sessionId: z.uuid(), fileIndex: z.number().int().min(0) });

export const uploadThingRouter = {
  templateFiles: f({ blob: { maxFileSize, maxFileCount: 1, minFileCount: 1 } })
    .input(templateFilesInput)
    .middleware(async ({ req, input, files }) => {
      try {
        const db = await getDb();
        const actor = await authenticate(db, req);
        if (actor.via === "session") requireSameOrigin(req);
        const [file] = files;
        if (!file || files.length !== 1) throw new BadRequestError("Send one file per upload.");
        await requireDeclaredUploadThingFile(db, { actor, sessionId: input.sessionId, fileIndex: input.fileIndex, file });
        return { sessionId: input.sessionId, fileIndex: input.fileIndex };
      } catch (error) {
        throw toUploadThingError(error);
      }
    })
    .onUploadComplete(async ({ metadata, file }) => {
      const uploaded = { key: file.key, url: file.ufsUrl, size: file.size };
      const { recorded, unreferencedKeys } = await recordUploadThingFile(await getDb(), { ...metadata, file: uploaded });
      // A file no session refers to would stay at UploadThing for good: the sweep only knows recorded ones.
      if (unreferencedKeys.length > 0) await deleteUploadThingFiles(unreferencedKeys).catch((error: unknown) => console.error(error));
      return { recorded };
    }),
} satisfies FileRouter;

export type UploadThingRouter = typeof uploadThingRouter;
