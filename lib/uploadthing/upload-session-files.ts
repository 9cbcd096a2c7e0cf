import { and, eq, sql } from "drizzle-orm";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/authenticate";
import { findProjectAccess, isUuid, requireRole } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { templateUploadSessions, type UploadSessionFile } from "@/lib/db/schema";

// The two steps of an UploadThing upload that touch an upload session (docs/direct-uploads.md):
// before the presigned URL is handed out, the file must be one the session declared; once
// UploadThing calls back, the session records where the file is.

export type UploadThingFile = NonNullable<UploadSessionFile["uploadthing"]>;

type DeclaredFile = { name: string; size: number };

/**
 * The session's declared file at `fileIndex`, when the actor may upload to the session's
 * project (template.upload), the session is open and sends its files through UploadThing, and
 * `file` is that file (same name, same size). 404 for a session the actor cannot see.
 */
export async function requireDeclaredUploadThingFile(
  db: Db,
  { actor, sessionId, fileIndex, file }: { actor: Actor; sessionId: string; fileIndex: number; file: DeclaredFile },
): Promise<UploadSessionFile> {
  const notFound = new NotFoundError(`Upload session ${sessionId} was not found.`);
  if (!isUuid(sessionId)) throw notFound;
  const [session] = await db
    .select({
      projectId: templateUploadSessions.projectId,
      provider: templateUploadSessions.provider,
      status: templateUploadSessions.status,
      files: templateUploadSessions.files,
    })
    .from(templateUploadSessions)
    .where(eq(templateUploadSessions.id, sessionId))
    .limit(1);
  const access = session ? await findProjectAccess(db, actor, session.projectId) : null;
  if (!session || !access) throw notFound;
  requireRole(access, "template.upload");
  if (session.status !== "open") throw new ConflictError(`Upload session ${sessionId} is ${session.status}: it takes no more files.`, "upload_session_not_open");
  if (session.provider !== "uploadthing") {
    throw new ConflictError(`Upload session ${sessionId} sends its files to ${session.provider}, not UploadThing.`, "upload_session_provider");
  }
  const declared = session.files[fileIndex];
  if (!declared) {
    throw new ValidationError([{ path: "input.fileIndex", message: `the session declares ${session.files.length} file(s): no file ${fileIndex}` }]);
  }
  const errors = [
    ...(file.name === declared.name ? [] : [{ path: "files.0.name", message: `must be ${JSON.stringify(declared.name)}, the name file ${fileIndex} was declared with` }]),
    ...(file.size === declared.size ? [] : [{ path: "files.0.size", message: `must be ${declared.size}, the size file ${fileIndex} was declared with` }]),
  ];
  if (errors.length > 0) throw new ValidationError(errors);
  return declared;
}

/**
 * Records an uploaded file as files[fileIndex].uploadthing, in one statement, while the session
 * is open and the size is the declared one. `unreferencedKeys`: the files at UploadThing no
 * session refers to any more, to delete — this one when it was not recorded (the session closed
 * meanwhile), or the earlier upload of the same file it replaced. A callback sent again for a
 * file already recorded leaves nothing to delete.
 */
export async function recordUploadThingFile(
  db: Db,
  { sessionId, fileIndex, file }: { sessionId: string; fileIndex: number; file: UploadThingFile },
): Promise<{ recorded: boolean; unreferencedKeys: string[] }> {
  const t = templateUploadSessions;
  const recordedKey = sql<string | null>`${t.files} -> ${fileIndex}::int -> 'uploadthing' ->> 'key'`;
  const before = db
    .select({ id: t.id, replacedKey: recordedKey.as("replaced_key") })
    .from(t)
    .where(eq(t.id, sessionId))
    .for("update")
    .as("before");
  const [updated] = await db
    .update(t)
    .set({
      files: sql`jsonb_set(${t.files}, ${`{${fileIndex},uploadthing}`}::text[], ${JSON.stringify(file)}::jsonb)`,
      updatedAt: sql`now()`,
    })
    .from(before)
    .where(
      and(
        eq(t.id, before.id),
        eq(t.status, "open"),
        eq(t.provider, "uploadthing"),
        sql`jsonb_array_length(${t.files}) > ${fileIndex}::int`,
        sql`(${t.files} -> ${fileIndex}::int ->> 'size')::bigint = ${file.size}::bigint`,
      ),
    )
    .returning({ replacedKey: before.replacedKey });
  if (updated) return { recorded: true, unreferencedKeys: updated.replacedKey && updated.replacedKey !== file.key ? [updated.replacedKey] : [] };
  // Not recorded: the file may still be the one the session refers to (the same callback twice,
  // the second after the session moved on to completing) — then it is not to be deleted.
  const [current] = await db.select({ key: recordedKey }).from(t).where(eq(t.id, sessionId)).limit(1);
  return { recorded: false, unreferencedKeys: current?.key === file.key ? [] : [file.key] };
}
