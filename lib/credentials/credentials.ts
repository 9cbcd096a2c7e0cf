import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { findProjectAccess, isUuid, requireRole, type ProjectAccess } from "@/lib/auth/project-access";
import { randomBase62, sha256Hex } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db";
import { apiCredentials } from "@/lib/db/schema";
import { audited, projectVerb } from "@/lib/services/verbs";
import type { CreateCredentialInput } from "./contract";

// The verbs a project's managers use on its API credentials (docs/adr/0143-service-verbs.md).
// Checking a credential a customer's server presents is verify-credential.ts: no actor there.

type CredentialRow = typeof apiCredentials.$inferSelect;

/** The public shape of a credential: never the secret, never its hash. */
export function presentCredential(row: CredentialRow) {
  return {
    id: row.id,
    projectId: row.projectId,
    apiKey: row.apiKey,
    name: row.name,
    status: row.status,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export const listCredentials = projectVerb("credential.read", async ({ db, access }) => {
  const rows = await db
    .select()
    .from(apiCredentials)
    .where(eq(apiCredentials.projectId, access.project.id))
    .orderBy(desc(apiCredentials.createdAt), desc(apiCredentials.id));
  return rows.map(presentCredential);
});

/**
 * Creates a pk_/sk_ pair in the context's project; the secret is returned here once and only its
 * SHA-256 is stored.
 */
export const createCredential = projectVerb("credential.write", async ({ actor, access, write }, input: CreateCredentialInput) => {
  const apiSecret = `sk_${randomBase62(40)}`;
  return write(async (tx) => {
    const [row] = await tx
      .insert(apiCredentials)
      .values({
        projectId: access.project.id,
        name: input.name ?? null,
        apiKey: `pk_${randomBase62(24)}`,
        secretHash: sha256Hex(apiSecret),
        createdBy: actor.userId,
      })
      .returning();
    return audited(
      { ...presentCredential(row!), apiSecret },
      { action: "credential.created", targetType: "api_credential", targetId: row!.id, data: { apiKey: row!.apiKey, name: row!.name } },
    );
  });
});

/**
 * The caller's access to a credential's project, for an action on the credential. A missing
 * credential and one in a project the caller cannot see are the same 404; too low a role is a 403.
 * The routes under /api/credentials/{id} start here, as defineRoute's `{ project }` access does for /api/Projects/{id}.
 */
export async function authorizeCredential(db: Db, actor: Actor, credentialId: string, action: Action): Promise<ProjectAccess> {
  const notFound = new NotFoundError(`Credential ${credentialId} was not found.`);
  if (!isUuid(credentialId)) throw notFound;
  const [row] = await db
    .select({ projectId: apiCredentials.projectId })
    .from(apiCredentials)
    .where(eq(apiCredentials.id, credentialId));
  const access = row && (await findProjectAccess(db, actor, row.projectId));
  if (!access) throw notFound;
  return requireRole(access, action);
}

/**
 * Idempotent: revoking a revoked credential returns it unchanged and writes no audit event.
 * Once committed, the embed sessions the credential minted stop working (active-credentials.ts).
 */
export const revokeCredential = projectVerb("credential.write", async ({ access, write }, credentialId: string) =>
  write(async (tx) => {
    const inProject = and(eq(apiCredentials.id, credentialId), eq(apiCredentials.projectId, access.project.id));
    const [revoked] = await tx
      .update(apiCredentials)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(and(inProject, eq(apiCredentials.status, "active")))
      .returning();
    if (revoked) {
      return audited(presentCredential(revoked), {
        action: "credential.revoked",
        targetType: "api_credential",
        targetId: revoked.id,
        data: { apiKey: revoked.apiKey, name: revoked.name },
      });
    }
    const [current] = await tx.select().from(apiCredentials).where(inProject);
    if (!current) throw new NotFoundError(`Credential ${credentialId} was not found.`);
    // Already revoked: nothing changed, nothing to record.
    return audited(presentCredential(current), []);
  }),
);
