import { createHash, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError, type FieldError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { getConfig } from "@/lib/config";
import { schema } from "@/lib/db";
import type { UploadSessionFile } from "@/lib/db/schema";
import { completeIdempotencyKey } from "@/lib/idempotency/idempotency";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { jsonRoles, maxJsonFileBytes, sanitizeFileName } from "../receive-upload";
import { claimIdempotencyKeyIn, releaseIdempotencyKeyIn } from "../upload-template";
import { maxUploadBytes, type FileRole } from "../contract";
import { fileSetErrors } from "../validate-upload";
import { uploadPartSize, type CreateUploadSessionBody, type UploadSessionProvider, type UploadSessionStatus } from "./contract";
import { currentProvider, discardStaging, partLinks, prepareFiles, uploadedParts, type UploadSessionRow } from "./staging";

const { templateUploadSessions } = schema;

/** The UploadThing file route a session's files go through (lib/uploadthing/file-router.ts). */
export const uploadThingEndpoint = "templateFiles";

/** The API's view of a session; an open one carries fresh part URLs (docs/direct-uploads.md). */
export async function presentUploadSession(row: UploadSessionRow) {
  const open = row.status === "open";
  return {
    id: row.id,
    projectId: row.projectId,
    status: row.status as UploadSessionStatus,
    provider: row.provider as UploadSessionProvider,
    partSize: row.partSize,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    templateId: row.templateId,
    problem: row.problem,
    files: await Promise.all(
      row.files.map(async (file, index) => ({
        index,
        role: file.role,
        name: file.name,
        size: file.size,
        type: file.type,
        ...(row.provider === "uploadthing"
          ? { uploadthing: { endpoint: uploadThingEndpoint, input: { sessionId: row.id, fileIndex: index } }, uploaded: file.uploadthing !== undefined }
          : { parts: open ? await partLinks(row, index) : [], uploadedParts: open ? await uploadedParts(row, index) : [] }),
      })),
    ),
  };
}

/** A session of the authorized project, or a 404. */
export async function getUploadSessionOrThrow({ db, access: { project } }: Permitted<"template.upload">, sessionId: string): Promise<UploadSessionRow> {
  const notFound = new NotFoundError(`Upload session ${sessionId} was not found.`);
  if (!isUuid(sessionId)) throw notFound;
  const [row] = await db
    .select()
    .from(templateUploadSessions)
    .where(and(eq(templateUploadSessions.id, sessionId), eq(templateUploadSessions.projectId, project.id)));
  if (!row) throw notFound;
  return row;
}

/** GET …/uploads/{id}: the session, with fresh part URLs while it is open. */
export const getUploadSession = projectVerb("template.upload", async (ctx, sessionId: string) => presentUploadSession(await getUploadSessionOrThrow(ctx, sessionId)));

/** What the declaration breaks, as the upload would say it: the file set's rules, JSON sizes; the total is a 413. */
function declarationErrors(body: CreateUploadSessionBody): FieldError[] {
  const errors = fileSetErrors(body.fields.kind, body.files);
  body.files.forEach((file, index) => {
    if (jsonRoles.has(file.role as FileRole) && file.size > maxJsonFileBytes) {
      errors.push({ path: `files.${index}.size`, message: `is larger than ${maxJsonFileBytes / 1024 / 1024} MB, the limit for a JSON file` });
    }
  });
  return errors;
}

/** The files a session declares (the request's body, validated), and its Idempotency-Key, if any. */
type CreateSessionInput = { declaration: CreateUploadSessionBody; idempotencyKey?: string };

/**
 * POST …/templates/uploads: checks the declared files as an upload would (before any byte is
 * sent), starts what the provider needs, and records the session. With an Idempotency-Key the
 * same declaration answers the same session.
 */
export const createUploadSession = projectVerb("template.upload", async (ctx, { declaration: body, idempotencyKey }: CreateSessionInput) => {
  const { actor, access } = ctx;
  const total = body.files.reduce((sum, file) => sum + file.size, 0);
  if (total > maxUploadBytes) {
    throw new PayloadTooLargeError(`A template upload is limited to ${maxUploadBytes.toLocaleString("en-US")} bytes (250 MB); these files are ${total.toLocaleString("en-US")}.`);
  }
  const errors = declarationErrors(body);
  if (errors.length > 0) throw new ValidationError(errors);

  const scope = idempotencyKey ? { projectId: access.project.id, key: idempotencyKey } : null;
  const requestHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const claim = scope ? await claimIdempotencyKeyIn(ctx, scope) : null;
  if (claim?.state === "in_flight") throw new ConflictError("A request with this Idempotency-Key is still being processed; retry when it has finished.");
  if (claim?.state === "completed") {
    if (claim.requestHash !== requestHash) throw new ValidationError([{ path: "Idempotency-Key", message: "was already used for an upload with different content" }]);
    const row = await getUploadSessionOrThrow(ctx, (claim.body as { id: string }).id);
    return { status: 201, body: await presentUploadSession(row), replayed: true };
  }

  const id = randomUUID();
  const provider = currentProvider();
  let files: UploadSessionFile[] | null = null;
  try {
    files = await prepareFiles(
      provider,
      id,
      body.files.map((file) => ({ ...file, name: sanitizeFileName(file.name, file.role) })),
    );
    const row = await ctx.write(async (tx) => {
      const [inserted] = await tx
        .insert(templateUploadSessions)
        .values({
          id,
          projectId: access.project.id,
          createdBy: actor.userId,
          provider,
          fields: body.fields,
          files: files!,
          partSize: uploadPartSize,
          expiresAt: new Date(Date.now() + getConfig().uploadSessionTtlSeconds * 1000),
        })
        .returning();
      if (scope) await completeIdempotencyKey(tx, scope, { requestHash, status: 201, body: { id } });
      // A session only stages an upload: the trail records the template when it completes (template.uploaded).
      return audited(inserted!, []);
    });
    return { status: 201, body: await presentUploadSession(row), replayed: false };
  } catch (error) {
    if (files) await discardStaging({ id, provider, files } as UploadSessionRow).catch(() => undefined);
    if (scope && claim?.state === "claimed") await releaseIdempotencyKeyIn(ctx, scope);
    throw error;
  }
});

/** DELETE …/uploads/{id}: an open session ends; what it staged is removed. Cancelling again is fine. */
export const cancelUploadSession = projectVerb("template.upload", async (ctx, sessionId: string): Promise<void> => {
  const row = await getUploadSessionOrThrow(ctx, sessionId);
  const cancelled = await ctx.write(async (tx) => {
    const [ended] = await tx
      .update(templateUploadSessions)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(and(eq(templateUploadSessions.id, row.id), eq(templateUploadSessions.status, "open")))
      .returning();
    // Ending a session's staging is no change to the project's templates: no row for the trail.
    return audited(ended, []);
  });
  // The cancel stands even when the clean-up fails (UploadThing unreachable): it is logged, and S3's lifecycle rule or the local sweep of leftovers finishes it.
  if (cancelled) return discardStaging(cancelled).catch((error: unknown) => console.error(`Cleaning up cancelled upload session ${row.id} failed:`, error));
  if (row.status === "cancelled") return;
  throw new ConflictError(`Upload session ${row.id} is ${row.status}; only an open session can be cancelled.`, "upload_session_not_open");
});
