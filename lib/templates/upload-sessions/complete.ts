import { and, eq, lt, or } from "drizzle-orm";
import { problemOf } from "@/lib/api/errors";
import { ConflictError, isAppError, toAppError, ValidationError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import { schema, type Db } from "@/lib/db";
import { discardReceivedFiles, type ReceivedFile } from "../receive-upload";
import { recordTemplate, type UploadResult } from "../upload-template";
import type { CompleteUploadSessionBody } from "./contract";
import { getUploadSessionOrThrow } from "./sessions";
import { assertSentWhole, discardStaging, receiveStagedFile, type UploadSessionRow } from "./staging";

const { templateUploadSessions } = schema;

/** A completion still running after this long belongs to a process that died; a retry may take it over. */
const abandonedAfterMs = 15 * 60 * 1000;

/** Moves an open session (or one whose completion was abandoned) to completing; null when another request holds it or it has ended. */
async function takeSession(db: Db, row: UploadSessionRow): Promise<UploadSessionRow | null> {
  const now = new Date();
  const [taken] = await db
    .update(templateUploadSessions)
    .set({ status: "completing", updatedAt: now })
    .where(
      and(
        eq(templateUploadSessions.id, row.id),
        or(
          eq(templateUploadSessions.status, "open"),
          and(eq(templateUploadSessions.status, "completing"), lt(templateUploadSessions.updatedAt, new Date(now.getTime() - abandonedAfterMs))),
        ),
      ),
    )
    .returning();
  return taken ?? null;
}

async function setStatus(db: Db, row: UploadSessionRow, status: "open" | "failed", problem: unknown = null) {
  await db.update(templateUploadSessions).set({ status, problem, updatedAt: new Date() }).where(eq(templateUploadSessions.id, row.id));
}

function notOpen(row: UploadSessionRow): ConflictError {
  if (row.status === "completing") return new ConflictError(`Upload session ${row.id} is being completed by another request; retry when it has finished.`, "upload_session_busy");
  const why = row.status === "failed" ? " (its files were refused; start a new session with corrected files)" : "";
  return new ConflictError(`Upload session ${row.id} is ${row.status}${why}; only an open session can be completed.`, "upload_session_not_open");
}

/**
 * POST …/uploads/{id}/complete: brings each staged file into blob storage (read once), then
 * validates and records the template exactly as POST …/templates/upload does, marking the
 * session completed in the same transaction. Completing again replays the 201. A file not sent
 * whole leaves the session open; files the upload's rules refuse end it (failed, staging removed).
 */
export async function completeUploadSession(db: Db, actor: Actor, access: ProjectAccess, sessionId: string, body: CompleteUploadSessionBody): Promise<UploadResult> {
  const row = await getUploadSessionOrThrow(db, access, sessionId);
  if (row.status === "completed") return { status: 201, body: row.response, replayed: true };
  const taken = await takeSession(db, row);
  if (!taken) {
    const now = await getUploadSessionOrThrow(db, access, sessionId);
    if (now.status === "completed") return { status: 201, body: now.response, replayed: true };
    throw notOpen(now);
  }

  const files: ReceivedFile[] = [];
  let phase: "assembling" | "validating" = "assembling";
  try {
    for (const index of taken.files.keys()) await assertSentWhole(taken, index, body);
    for (const index of taken.files.keys()) {
      const received = await receiveStagedFile(taken, index, body);
      files.push(received);
      const declared = taken.files[index]!;
      if (received.size !== declared.size) {
        phase = "validating";
        throw new ValidationError([{ path: `files.${index}`, message: `${declared.name} is ${received.size} bytes; ${declared.size} were declared` }]);
      }
    }
    phase = "validating";
    const response = await recordTemplate(db, actor, access, { fields: taken.fields, files }, async (tx, created) => {
      await tx
        .update(templateUploadSessions)
        .set({ status: "completed", response: created, templateId: (created as { id: string }).id, updatedAt: new Date() })
        .where(eq(templateUploadSessions.id, taken.id));
    });
    await discardStaging(taken).catch(() => undefined);
    return { status: 201, body: response, replayed: false };
  } catch (error) {
    await discardReceivedFiles(db, files);
    const refused = phase === "validating" && isAppError(error, "validation_failed");
    if (refused) {
      await setStatus(db, taken, "failed", JSON.parse(problemOf(toAppError(error)).body));
      await discardStaging(taken).catch(() => undefined);
    } else {
      await setStatus(db, taken, "open");
    }
    throw error;
  }
}
