import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { ConflictError, ValidationError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { templateFiles, templates } from "@/lib/db/schema";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "@/lib/idempotency/idempotency";
import { auditTemplate } from "./lifecycle";
import { discardReceivedFiles, receiveUpload, storePart, type ReceivedFile, type ReceivedUpload } from "./receive-upload";
import type { FileRole } from "./contract";
import { presentTemplate, type Template } from "./templates";
import { validateUpload } from "./validate-upload";

export type UploadResult = { status: number; body: unknown; replayed: boolean };

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
export async function uploadTemplate(db: Db, actor: Actor, access: ProjectAccess, req: Request, idempotencyKey?: string): Promise<UploadResult> {
  const scope = idempotencyKey ? { projectId: access.project.id, key: idempotencyKey } : null;
  const claim = scope ? await claimIdempotencyKey(db, scope) : null;
  if (claim?.state === "in_flight") {
    throw new ConflictError("A request with this Idempotency-Key is still being processed; retry when it has finished.");
  }
  try {
    const upload = await receiveUpload(db, req);
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
      const body = await recordTemplate(db, actor, access, upload, (tx, response) =>
        scope ? completeIdempotencyKey(tx, scope, { requestHash, status: 201, body: response }) : Promise.resolve(),
      );
      return { status: 201, body, replayed: false };
    } catch (error) {
      await discardReceivedFiles(db, upload.files);
      throw error;
    }
  } catch (error) {
    if (scope && claim?.state === "claimed") await releaseIdempotencyKey(db, scope);
    throw error;
  }
}

export type TemplateFileInput = { role: FileRole; name: string; bytes: Uint8Array };

/**
 * Creates a template from files already in hand (the bootstrap's demo, scripts): the same
 * validation and record as an upload, without HTTP.
 */
export async function importTemplate(db: Db, actor: Actor, access: ProjectAccess, fields: Record<string, string>, inputs: TemplateFileInput[]) {
  const files: ReceivedFile[] = [];
  try {
    for (const input of inputs) files.push(await storePart(input.role, input.name, Readable.from([Buffer.from(input.bytes)])));
    return (await recordTemplate(db, actor, access, { fields, files }, async () => {})) as Template;
  } catch (error) {
    await discardReceivedFiles(db, files);
    throw error;
  }
}

/**
 * Validates received files and records the template (status Testing) with them in one
 * transaction; `complete` runs inside it (idempotency record, upload session).
 */
export async function recordTemplate(
  db: Db,
  actor: Actor,
  access: ProjectAccess,
  upload: ReceivedUpload,
  complete: (tx: Db, response: unknown) => Promise<void>,
) {
  const valid = validateUpload(upload);
  return db.transaction(async (tx) => {
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
    await auditTemplate(tx, actor, access, template!, "template.uploaded", { kind: template!.kind });
    const response = JSON.parse(JSON.stringify({ ...presentTemplate(template!, files), warnings: valid.warnings })) as unknown;
    await complete(tx, response);
    return response;
  });
}
