import { and, eq, lt, or } from "drizzle-orm";
import { problemOf } from "@/lib/api/errors";
import { ConflictError, isAppError, toAppError, ValidationError } from "@/lib/errors";
import { schema } from "@/lib/db";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import { discardReceivedFiles, type ReceivedFile } from "../receive-upload";
import { recordTemplate, type UploadResult } from "../upload-template";
import type { CompleteUploadSessionBody } from "./contract";
import { getUploadSessionOrThrow } from "./sessions";
import { assertSentWhole, discardStaging, receiveStagedFile, type UploadSessionRow } from "./staging";

const { templateUploadSessions } = schema;

/** A completion still running after this long belongs to a process that died; a retry may take it over. */
const abandonedAfterMs = 15 * 60 * 1000;

/** Moves an open session (or one whose completion was abandoned) to completing; null when another request holds it or it has ended. */
async function takeSession(ctx: Permitted<"template.upload">, row: UploadSessionRow): Promise<UploadSessionRow | null> {
  const now = new Date();
  // The session's status is the completion's own bookkeeping (its own small transactions, so that
  // other requests see it): the trail records the template it creates (template.uploaded).
  return ctx.write(async (tx) => {
    const [taken] = await tx
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
    return audited(taken ?? null, []);
  });
}

/** Back to open (a retry may complete it), or failed (its files were refused): bookkeeping, as takeSession. */
async function setStatus(ctx: Permitted<"template.upload">, row: UploadSessionRow, status: "open" | "failed", problem: unknown = null) {
  await ctx.write(async (tx) => {
    await tx.update(templateUploadSessions).set({ status, problem, updatedAt: new Date() }).where(eq(templateUploadSessions.id, row.id));
    return audited(undefined, []);
  });
}

type CompleteInput = { sessionId: string; completion: CompleteUploadSessionBody };

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
export const completeUploadSession = projectVerb("template.upload", async (ctx, { sessionId, completion: body }: CompleteInput): Promise<UploadResult> => {
  const row = await getUploadSessionOrThrow(ctx, sessionId);
  if (row.status === "completed") return { status: 201, body: row.response, replayed: true };
  const taken = await takeSession(ctx, row);
  if (!taken) {
    const now = await getUploadSessionOrThrow(ctx, sessionId);
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
    const response = await recordTemplate(ctx, { fields: taken.fields, files }, async (tx, created) => {
      await tx
        .update(templateUploadSessions)
        .set({ status: "completed", response: created, templateId: (created as { id: string }).id, updatedAt: new Date() })
        .where(eq(templateUploadSessions.id, taken.id));
    });
    await discardStaging(taken).catch(() => undefined);
    return { status: 201, body: response, replayed: false };
  } catch (error) {
    await discardReceivedFiles(ctx.db, files);
    const refused = phase === "validating" && isAppError(error, "validation_failed");
    if (refused) {
      await setStatus(ctx, taken, "failed", JSON.parse(problemOf(toAppError(error)).body));
      await discardStaging(taken).catch(() => undefined);
    } else {
      await setStatus(ctx, taken, "open");
    }
    throw error;
  }
});
