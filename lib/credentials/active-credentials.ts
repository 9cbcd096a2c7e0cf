import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { apiCredentials } from "@/lib/db/schema";

// An embed session dies with the API credential that minted it: the page manifest asks here on
// every use. Always the database, never a memory of this process: a revocation made through
// any app process must stop the sessions on all of them at once (docs/adr/0083-scale-out.md).

/** Whether the credential exists in the project and is active. */
export async function isCredentialActive(db: Db, projectId: string, credentialId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiCredentials.id })
    .from(apiCredentials)
    .where(and(eq(apiCredentials.id, credentialId), eq(apiCredentials.projectId, projectId), eq(apiCredentials.status, "active")));
  return row !== undefined;
}
