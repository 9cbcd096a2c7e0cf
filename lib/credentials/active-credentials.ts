import { and, eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "@/lib/db";
import { apiCredentials } from "@/lib/db/schema";
import { processWide } from "@/lib/process-wide";

// An embed session dies with the API credential that minted it: the page manifest asks here on
// every use. A credential found active is remembered for 30 s, since a host page's views each
// ask; only "active" is remembered, and a revocation in this process forgets it at once, so
// here a revoked credential stops its sessions immediately and other processes within 30 s.

export const activeCredentialMemoryMs = 30_000;

type Memory = {
  /** credentialId → its projectId, for credentials recently found active. */
  active: LRUCache<string, string>;
  /** Counts revocations, so a check that overlapped one remembers nothing. */
  revocations: number;
};

const memory = () =>
  processWide("credentials.active", (): Memory => ({
    active: new LRUCache<string, string>({ max: 10_000, ttl: activeCredentialMemoryMs }),
    revocations: 0,
  }));

/** Whether the credential exists in the project and is active. */
export async function isCredentialActive(db: Db, projectId: string, credentialId: string): Promise<boolean> {
  const remembered = memory();
  if (remembered.active.get(credentialId) === projectId) return true;
  const revocationsBefore = remembered.revocations;
  const [row] = await db
    .select({ id: apiCredentials.id })
    .from(apiCredentials)
    .where(and(eq(apiCredentials.id, credentialId), eq(apiCredentials.projectId, projectId), eq(apiCredentials.status, "active")));
  // The query may have read the row just before a revocation committed: then remember nothing.
  if (row && remembered.revocations === revocationsBefore) remembered.active.set(credentialId, projectId);
  return row !== undefined;
}

/** Call once a revocation has committed: this process stops honouring the credential's sessions now. */
export function forgetActiveCredential(credentialId: string): void {
  const remembered = memory();
  remembered.revocations++;
  remembered.active.delete(credentialId);
}
