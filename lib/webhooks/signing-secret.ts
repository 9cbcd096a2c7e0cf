import { ConflictError } from "@/lib/errors";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { getSigningSecret, rotateSigningSecret } from "./signing-keys";

// The signing secret as the API shows it to a project's managers: revealed on request (made on
// first need), and rotated with an audit event.

/** The project's secret; 409 when it was sealed under a TOKEN_SECRETS entry that is gone (rotating fixes it). */
export async function revealSigningSecret(db: Db, { project }: ProjectAccess) {
  try {
    return await getSigningSecret(db, project.id);
  } catch (error) {
    if (hasErrorCode(error, "SECRET_BOX")) throw new ConflictError((error as Error).message, "signing_secret_unreadable");
    throw error;
  }
}

export async function rotateProjectSigningSecret(db: Db, actor: Actor, access: ProjectAccess) {
  return db.transaction(async (tx) => {
    const rotated = await rotateSigningSecret(tx, access.project.id);
    await recordProjectAuditEvent(tx, actor, access, {
      action: "webhook.signing_secret_rotated",
      targetType: "project",
      targetId: access.project.id,
      data: { previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? null },
    });
    return rotated;
  });
}
