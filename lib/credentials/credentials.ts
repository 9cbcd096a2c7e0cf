import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { findProjectAccess, isUuid, requireRole, type ProjectAccess } from "@/lib/auth/project-access";
import { randomBase62, safeEqual, sha256Hex } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db";
import { lastUsedIsDue, lastUsedWasDue } from "@/lib/db/last-used";
import { apiCredentials } from "@/lib/db/schema";
import type { CreateCredentialInput } from "./contract";

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

export async function listCredentials(db: Db, { project }: ProjectAccess) {
  const rows = await db
    .select()
    .from(apiCredentials)
    .where(eq(apiCredentials.projectId, project.id))
    .orderBy(desc(apiCredentials.createdAt), desc(apiCredentials.id));
  return rows.map(presentCredential);
}

/** Creates a pk_/sk_ pair; the secret is returned here once and only its SHA-256 is stored. */
export async function createCredential(db: Db, actor: Actor, access: ProjectAccess, input: CreateCredentialInput) {
  const apiSecret = `sk_${randomBase62(40)}`;
  return db.transaction(async (tx) => {
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
    await recordProjectAuditEvent(tx, actor, access, {
      action: "credential.created",
      targetType: "api_credential",
      targetId: row!.id,
      data: { apiKey: row!.apiKey, name: row!.name },
    });
    return { ...presentCredential(row!), apiSecret };
  });
}

/**
 * The caller's access to a credential's project, for an action on the credential. A missing
 * credential and one in a project the caller cannot see are the same 404; too low a role is a 403.
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
export async function revokeCredential(db: Db, actor: Actor, access: ProjectAccess, credentialId: string) {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiCredentials)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(
        and(
          eq(apiCredentials.id, credentialId),
          eq(apiCredentials.projectId, access.project.id),
          eq(apiCredentials.status, "active"),
        ),
      )
      .returning();
    if (revoked) {
      await recordProjectAuditEvent(tx, actor, access, {
        action: "credential.revoked",
        targetType: "api_credential",
        targetId: revoked.id,
        data: { apiKey: revoked.apiKey, name: revoked.name },
      });
      return presentCredential(revoked);
    }
    const [current] = await tx
      .select()
      .from(apiCredentials)
      .where(and(eq(apiCredentials.id, credentialId), eq(apiCredentials.projectId, access.project.id)));
    if (!current) throw new NotFoundError(`Credential ${credentialId} was not found.`);
    return presentCredential(current);
  });
}

/**
 * Checks an apiKey/apiSecret pair (HTTP Basic for server-to-server calls) and records
 * lastUsedAt at most once a minute. Returns null for unknown, wrong or revoked pairs.
 */
export async function verifyCredential(db: Db, apiKey: string, apiSecret: string) {
  const [row] = await db.select().from(apiCredentials).where(eq(apiCredentials.apiKey, apiKey));
  if (!row || row.status !== "active" || !safeEqual(sha256Hex(apiSecret), row.secretHash)) return null;
  const now = new Date();
  if (!lastUsedWasDue(row.lastUsedAt, now)) return presentCredential(row);
  const [touched] = await db
    .update(apiCredentials)
    .set({ lastUsedAt: now })
    .where(and(eq(apiCredentials.id, row.id), lastUsedIsDue(apiCredentials.lastUsedAt, now)))
    .returning();
  return presentCredential(touched ?? row);
}
