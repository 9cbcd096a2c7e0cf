import { and, desc, eq, lt } from "drizzle-orm";
import { ValidationError } from "@/lib/api/errors";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { auditEvents, users } from "@/lib/db/schema";
import type { ListAuditEventsQuery } from "./schema";

/** A cursor is the seq of the last event on a page, base64url-encoded so clients treat it as opaque. */
function encodeCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  return Number(match[1]);
}

/** The project's audit trail, newest first, in pages that stay stable while new events arrive. */
export async function listAuditEvents(db: Db, { project }: ProjectAccess, { limit, cursor }: ListAuditEventsQuery) {
  const rows = await db
    .select({
      seq: auditEvents.seq,
      id: auditEvents.id,
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      actorId: auditEvents.actorUserId,
      actorEmail: users.email,
      data: auditEvents.data,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(and(eq(auditEvents.projectId, project.id), cursor ? lt(auditEvents.seq, decodeCursor(cursor)) : undefined))
    .orderBy(desc(auditEvents.seq))
    .limit(limit + 1);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ seq: _seq, actorId, actorEmail, ...event }) => ({
      ...event,
      actor: actorId && actorEmail ? { id: actorId, email: actorEmail } : null,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
  };
}
