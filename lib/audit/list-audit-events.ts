import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { ValidationError } from "@/lib/api/errors";
import { isUuid } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { auditEvents, users } from "@/lib/db/schema";
import type { ListAuditEventsQuery } from "./schema";

/** createdAt to the microsecond, as PostgreSQL stores it; a Date would round it to milliseconds. */
type Position = { createdAt: string; id: string };

const exactCreatedAt = sql<string>`to_char(${auditEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A cursor is the (createdAt, id) of the last event on a page, base64url-encoded. */
function encodeCursor({ createdAt, id }: Position): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(createdAt) || !id || !isUuid(id)) {
    throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  }
  return { createdAt, id };
}

/** The project's audit trail, newest first, in pages that stay stable while new events arrive. */
export async function listAuditEvents(db: Db, projectId: string, { limit, cursor }: ListAuditEventsQuery) {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      actorId: auditEvents.actorUserId,
      actorEmail: users.email,
      data: auditEvents.data,
      createdAt: auditEvents.createdAt,
      position: exactCreatedAt,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(
      and(
        eq(auditEvents.projectId, projectId),
        after
          ? or(
              sql`${auditEvents.createdAt} < ${after.createdAt}::timestamptz`,
              and(sql`${auditEvents.createdAt} = ${after.createdAt}::timestamptz`, lt(auditEvents.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ actorId, actorEmail, position: _position, ...event }) => ({
      ...event,
      actor: actorId && actorEmail ? { id: actorId, email: actorEmail } : null,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id }) : null,
  };
}
