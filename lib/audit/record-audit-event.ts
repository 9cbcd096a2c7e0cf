import type { Db } from "@/lib/db";
import { auditEvents } from "@/lib/db/schema";

export type AuditEventInput = {
  organizationId: string;
  projectId: string | null;
  actorUserId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  data?: Record<string, unknown>;
};

/** Call inside the transaction that makes the change, so the audit row and the change commit together. */
export async function recordAuditEvent(tx: Db, event: AuditEventInput): Promise<void> {
  await tx.insert(auditEvents).values(event);
}

type ProjectChange = { action: string; targetType: string; targetId: string; data?: Record<string, unknown> };

/** The audit event of a change an actor made in one project, in the change's transaction. */
export function recordProjectAuditEvent(
  tx: Db,
  actor: { userId: string },
  access: { project: { id: string; organizationId: string } },
  change: ProjectChange,
): Promise<void> {
  return recordAuditEvent(tx, {
    organizationId: access.project.organizationId,
    projectId: access.project.id,
    actorUserId: actor.userId,
    ...change,
  });
}
