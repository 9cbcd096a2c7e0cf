import { and, eq } from "drizzle-orm";
import { safeEqual, sha256Hex } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db";
import { lastUsedIsDue, lastUsedWasDue } from "@/lib/db/last-used";
import { apiCredentials } from "@/lib/db/schema";
import { presentCredential } from "./credentials";

// A customer site's server presents its credential (HTTP Basic apiKey:apiSecret): no actor, no
// project access, so no verb (credentials.ts holds those). Touching lastUsedAt is bookkeeping,
// not a change anyone made: it records no audit event.

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
