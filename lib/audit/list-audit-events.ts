import { and, desc, eq, lt } from "drizzle-orm";
import { ValidationError } from "@/lib/errors";
import { can } from "@/lib/auth/permissions";
import { auditEvents, users, type Role } from "@/lib/db/schema";
import { projectVerb } from "@/lib/services/verbs";
import type { ListAuditEventsQuery } from "./contract";

/** A cursor is the seq of the last event on a page, base64url-encoded so clients treat it as opaque. */
function encodeCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  return Number(match[1]);
}

/** Who reads the trail: what an event shows depends on their role and who they are (redactAuditEvent). */
export type AuditReader = { userId: string; email: string; role: Role };

/** Stands in for another member's email when the reader may not see who else is on the project. */
export const otherMemberLabel = "a project member";

type AuditEventRow = {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  actorId: string | null;
  actorEmail: string | null;
  data: Record<string, unknown> | null;
  createdAt: Date;
};

/**
 * Keys of an event's data that hold a person's email: `email` (member.added, member.role_changed,
 * member.removed name the member) and any later `…Email`.
 */
const emailKey = /^email$|Email$/;

/**
 * An event as `reader` may see it. The trail records everything; what it shows follows the role
 * table: a credential's apiKey needs credential.read (ProjectManager); another person's email —
 * the actor's, or the member an event is about — needs member.read (OrganizationAdmin, who
 * manages members anyway). Below that the email is "a project member" (the actor's id stays, so
 * one actor's changes still group) while the reader's own email stays.
 */
export function redactAuditEvent({ actorId, actorEmail, data, ...event }: AuditEventRow, reader: AuditReader) {
  const email = actorId && actorEmail ? memberEmailFor(reader, actorId, actorEmail) : null;
  let shownData = data;
  if (data) {
    shownData = Object.fromEntries(
      Object.entries(data)
        .filter(([key]) => key !== "apiKey" || can(reader.role, "credential.read"))
        .map(([key, value]) => [key, emailKey.test(key) && typeof value === "string" ? emailFor(reader, value) : value]),
    );
  }
  return { ...event, actor: actorId && email ? { id: actorId, email } : null, data: shownData };
}

/** A member's email as `reader` may see it: their own always, another's with member.read, else a label. */
export function memberEmailFor(reader: Pick<AuditReader, "userId" | "role">, userId: string, email: string): string {
  return userId === reader.userId || can(reader.role, "member.read") ? email : otherMemberLabel;
}

/** An email an event's data names, as `reader` may see it (their own is recognised by the address; case does not matter). */
function emailFor(reader: AuditReader, email: string): string {
  return email.toLowerCase() === reader.email.toLowerCase() || can(reader.role, "member.read") ? email : otherMemberLabel;
}

/**
 * The project's audit trail, newest first, in pages that stay stable while new events arrive; each
 * event as the caller may see it (redactAuditEvent: the caller is the reader).
 */
export const listAuditEvents = projectVerb("audit.read", async (ctx, { limit, cursor, actor, action }: ListAuditEventsQuery) => {
  const { db, access } = ctx;
  const reader: AuditReader = { userId: ctx.actor.userId, email: ctx.actor.email, role: access.role };
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
    .where(
      and(
        eq(auditEvents.projectId, access.project.id),
        cursor ? lt(auditEvents.seq, decodeCursor(cursor)) : undefined,
        actor ? eq(auditEvents.actorUserId, actor) : undefined,
        action ? eq(auditEvents.action, action) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(limit + 1);

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ seq: _seq, ...event }) => redactAuditEvent(event, reader)),
    nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
  };
});
