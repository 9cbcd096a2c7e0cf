import type { Db } from "@/lib/db";

/**
 * Runs `read` in one read-only, repeatable-read transaction: every query in it sees the same
 * snapshot (the rollups and the tail above the cursor cannot disagree), and PostgreSQL refuses
 * any write in it. The reports are verbs (docs/adr/0143-service-verbs.md) that change nothing.
 */
export function readSnapshot<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}
