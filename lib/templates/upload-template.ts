import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { ConflictError, ValidationError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { templateFiles, templates } from "@/lib/db/schema";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "@/lib/idempotency/idempotency";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { templateChange } from "./lifecycle";
import { discardReceivedFiles, receiveUpload, storePart, type ReceivedFile, type ReceivedUpload } from "./receive-upload";
import type { FileRole } from "./contract";
import { presentTemplate, type Template } from "./templates";
import { validateUpload } from "./validate-upload";

export type UploadResult = { status: number; body: unknown; replayed: boolean };
/** A multipart request (its body is streamed to storage) and its Idempotency-Key, if any. */
export type UploadInput = { request: Request; idempotencyKey?: string };

/**
 * What makes two uploads "the same content" for an Idempotency-Key: the form fields and each
 * file's role, name and SHA-256 — not the raw bytes, whose multipart boundaries differ per request.
 */
function fingerprint({ fields, files }: ReceivedUpload): string {
  const canonical = {
    fields: Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)),
    files: files.map((f) => [f.role, f.name, f.sha256]).sort((a, b) => a.join("/").localeCompare(b.join("/"))),
  };
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}

/**
 * POST …/templates/upload. Streams the files to storage, validates them, and records the
 * template (status Testing) with its files in one transaction. With an Idempotency-Key the
 * first response is replayed for the same content, and refused for different content.
 */
export const uploadTemplate = projectVerb("template.upload", async (ctx, { request, idempotencyKey }: UploadInput): Promise<UploadResult> => {
  const { db, access } = ctx;
  const scope = idempotencyKey ? { projectId: access.project.id, key: idempotencyKey } : null;
  const claim = scope ? await claimIdempotencyKeyIn(ctx, scope) : null;
  if (claim?.state === "in_flight") {
    throw new ConflictError("A request with this Idempotency-Key is still being processed; retry when it has finished.");
  }
  try {
    const upload = await receiveUpload(db, request);
    const requestHash = fingerprint(upload);
    if (claim?.state === "completed") {
      await discardReceivedFiles(db, upload.files);
      if (claim.requestHash !== requestHash) {
        throw new ValidationError([
          { path: "Idempotency-Key", message: "was already used for an upload with different content" },
        ]);
      }
      return { status: claim.status, body: claim.body, replayed: true };
    }
    try {
      const body = await recordTemplate(ctx, upload, (tx, response) =>
        scope ? completeIdempotencyKey(tx, scope, { requestHash, status: 201, body: response }) : Promise.resolve(),
      );
      return { status: 201, body, replayed: false };
    } catch (error) {
      await discardReceivedFiles(db, upload.files);
      throw error;
    }
  } catch (error) {
    if (scope && claim?.state === "claimed") await releaseIdempotencyKeyIn(ctx, scope);
    throw error;
  }
});

type IdempotencyScope = { projectId: string; key: string };

/** Claims the key in a transaction of its own, committed before the upload: bookkeeping, not a change to the project. */
export function claimIdempotencyKeyIn(ctx: Permitted<"template.upload">, scope: IdempotencyScope) {
  return ctx.write(async (tx) => audited(await claimIdempotencyKey(tx, scope), []));
}

/** Frees a claimed key after a failure: bookkeeping, not a change to the project. */
export function releaseIdempotencyKeyIn(ctx: Permitted<"template.upload">, scope: IdempotencyScope) {
  return ctx.write(async (tx) => audited(await releaseIdempotencyKey(tx, scope), []));
}

export type TemplateFileInput = { role: FileRole; name: string; bytes: Uint8Array };

/**
 * Creates a template from files already in hand (the bootstrap's demo, scripts): the same
 * validation and record as an upload, without HTTP.
 */
export const importTemplate = projectVerb("template.upload", async (ctx, { fields, files: inputs }: { fields: Record<string, string>; files: TemplateFileInput[] }) => {
  const files: ReceivedFile[] = [];
  try {
    for (const input of inputs) files.push(await storePart(input.role, input.name, Readable.from([Buffer.from(input.bytes)])));
    return (await recordTemplate(ctx, { fields, files }, async () => {})) as Template;
  } catch (error) {
    await discardReceivedFiles(ctx.db, files);
    throw error;
  }
});

/**
 * Validates received files and records the template (status Testing) with them in one
 * transaction; `complete` runs inside it (idempotency record, upload session).
 */
export async function recordTemplate(
  { actor, access, write }: Permitted<"template.upload">,
  upload: ReceivedUpload,
  complete: (tx: Db, response: unknown) => Promise<void>,
) {
  const valid = validateUpload(upload);
  return write(async (tx) => {
    const [template] = await tx
      .insert(templates)
      .values({
        projectId: access.project.id,
        name: valid.fields.name,
        version: valid.fields.version,
        kind: valid.fields.kind,
        manifest: valid.manifest,
        fields: valid.templateFields,
        overlay: valid.overlay,
        width: valid.info?.width ?? null,
        height: valid.info?.height ?? null,
        frameRate: valid.info?.frameRate ?? null,
        inPoint: valid.info?.inPoint ?? null,
        outPoint: valid.info?.outPoint ?? null,
        createdBy: actor.userId,
      })
      .returning();
    const files = await tx
      .insert(templateFiles)
      .values(
        upload.files.map((file) => ({
          templateId: template!.id,
          role: file.role,
          name: file.name,
          size: file.size,
          sha256: file.sha256,
          contentType: file.type?.contentType ?? "application/json",
          storageKey: file.storageKey,
        })),
      )
      .returning();
    const response = JSON.parse(JSON.stringify({ ...presentTemplate(template!, files), warnings: valid.warnings })) as unknown;
    await complete(tx, response);
    return audited(response, templateChange(template!, "template.uploaded", { kind: template!.kind }));
  });
}
