import { and, eq, isNotNull, notLike, or } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { hasErrorCode } from "@/lib/error-code";
import { schema, type Db } from "@/lib/db";
import { openSecret, sealSecret } from "./secret-box";
import { generateSigningSecret } from "./signing";

// One signing secret per project, made on first need (the first delivery, or the console
// showing it). A rotation keeps the previous secret for 24 h: deliveries carry both signatures
// meanwhile, so receivers can switch to the new secret without rejecting anything.

const keys = schema.webhookSigningKeys;

/** How long the secret before a rotation still signs (beside the new one). */
export const previousSecretGraceMs = 24 * 60 * 60 * 1000;

type KeyRow = typeof keys.$inferSelect;

export type SigningSecret = {
  secret: string;
  createdAt: Date;
  rotatedAt: Date | null;
  /** Until when deliveries are signed with the previous secret too; null when none is honoured. */
  previousSecretExpiresAt: Date | null;
};

function previousExpiry(row: KeyRow, now: Date): Date | null {
  if (!row.previousSecretCiphertext || !row.rotatedAt) return null;
  const expires = new Date(row.rotatedAt.getTime() + previousSecretGraceMs);
  return expires > now ? expires : null;
}

function present(row: KeyRow, now = new Date()): SigningSecret {
  return {
    secret: openSecret(row.secretCiphertext, row.projectId),
    createdAt: row.createdAt,
    rotatedAt: row.rotatedAt,
    previousSecretExpiresAt: previousExpiry(row, now),
  };
}

function opens(sealed: string, projectId: string): boolean {
  try {
    openSecret(sealed, projectId);
    return true;
  } catch {
    return false;
  }
}

/** The project's key row, created (concurrently safe) when it has none. */
async function keyRow(db: Db, projectId: string): Promise<KeyRow> {
  const [existing] = await db.select().from(keys).where(eq(keys.projectId, projectId));
  if (existing) return existing;
  await db
    .insert(keys)
    .values({ projectId, secretCiphertext: sealSecret(generateSigningSecret(), projectId) })
    .onConflictDoNothing();
  const [row] = await db.select().from(keys).where(eq(keys.projectId, projectId));
  return row!;
}

/** The project's signing secret (made now if it has none). Callers authorize the project first. */
export async function getSigningSecret(db: Db, projectId: string): Promise<SigningSecret> {
  return present(await keyRow(db, projectId));
}

/** The secrets a delivery is signed with now: the current one, then the previous one during its grace period. */
export async function deliverySecrets(db: Db, projectId: string, now = new Date()): Promise<string[]> {
  const row = await keyRow(db, projectId);
  const current = openSecret(row.secretCiphertext, projectId);
  return previousExpiry(row, now) ? [current, openSecret(row.previousSecretCiphertext!, projectId)] : [current];
}

/**
 * A new secret; the one it replaces keeps signing for 24 h. Rotating twice within that time
 * drops the oldest at once (a second rotation is what someone does after a leak).
 */
export async function rotateSigningSecret(db: Db, projectId: string): Promise<SigningSecret> {
  const current = await keyRow(db, projectId);
  const [row] = await db
    .update(keys)
    .set({
      secretCiphertext: sealSecret(generateSigningSecret(), projectId),
      // One that no longer decrypts (its TOKEN_SECRETS entry is gone) cannot sign anything: dropped.
      previousSecretCiphertext: opens(current.secretCiphertext, projectId) ? current.secretCiphertext : null,
      rotatedAt: new Date(),
    })
    .where(eq(keys.projectId, projectId))
    .returning();
  return present(row!);
}

/**
 * Re-encrypts, under TOKEN_SECRETS' first entry, every secret sealed under another one, so the
 * old entry can leave TOKEN_SECRETS after a rotation (docs/operations.md). Returns how many rows.
 */
export async function reencryptSigningSecrets(db: Db): Promise<number> {
  const currentKid = getConfig().tokenSecrets[0]!.kid;
  const prefix = `v1:${currentKid}:%`;
  const stale = await db
    .select()
    .from(keys)
    .where(or(notLike(keys.secretCiphertext, prefix), and(isNotNull(keys.previousSecretCiphertext), notLike(keys.previousSecretCiphertext, prefix))));
  let updated = 0;
  for (const row of stale) {
    const reseal = (sealed: string) => (sealed.startsWith(prefix.slice(0, -1)) ? sealed : sealSecret(openSecret(sealed, row.projectId), row.projectId));
    try {
      const [changed] = await db
        .update(keys)
        .set({
          secretCiphertext: reseal(row.secretCiphertext),
          previousSecretCiphertext: row.previousSecretCiphertext ? reseal(row.previousSecretCiphertext) : null,
        })
        // Unless a rotation changed the row meanwhile.
        .where(and(eq(keys.projectId, row.projectId), eq(keys.secretCiphertext, row.secretCiphertext)))
        .returning({ projectId: keys.projectId });
      if (changed) updated++;
    } catch (error) {
      // A secret sealed under a kid that is gone cannot be saved; its deliveries say so until someone rotates it.
      if (!hasErrorCode(error, "SECRET_BOX")) throw error;
    }
  }
  return updated;
}
