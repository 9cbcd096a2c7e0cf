import { ConflictError } from "@/lib/errors";
import { hasErrorCode } from "@/lib/error-code";
import { audited, projectVerb } from "@/lib/services/verbs";
import { getSigningSecret, rotateSigningSecret } from "./signing-keys";

// The signing secret as the API shows it to a project's managers: revealed on request (made on
// first need), and rotated with an audit event. The keys themselves are signing-keys.ts.

/**
 * The project's secret; 409 when it was sealed under a TOKEN_SECRETS entry that is gone (rotating
 * fixes it). A project that has none gets one now (signing-keys.ts): the key the first delivery
 * would make anyway, not a change anyone asked for, so no audit event.
 */
export const revealSigningSecret = projectVerb("webhook.read", async ({ db, access }) => {
  try {
    return await getSigningSecret(db, access.project.id);
  } catch (error) {
    if (hasErrorCode(error, "SECRET_BOX")) throw new ConflictError((error as Error).message, "signing_secret_unreadable");
    throw error;
  }
});

/** A new secret; the previous one still signs for 24 h (signing-keys.ts). */
export const rotateProjectSigningSecret = projectVerb("webhook.write", async ({ access, write }) =>
  write(async (tx) => {
    const rotated = await rotateSigningSecret(tx, access.project.id);
    return audited(rotated, {
      action: "webhook.signing_secret_rotated",
      targetType: "project",
      targetId: access.project.id,
      data: { previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? null },
    });
  }),
);
