import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { idempotencyKeys } from "@/lib/db/schema";

/** Replays are guaranteed for 24 hours after the first request completed. */
const retentionMs = 24 * 60 * 60 * 1000;
/** A key still in flight after this long belongs to a request that died; a retry may take it over. */
const abandonedAfterMs = 15 * 60 * 1000;

export type IdempotencyClaim =
  | { state: "claimed" }
  | { state: "in_flight" }
  | { state: "completed"; requestHash: string; status: number; body: unknown };

type Scope = { projectId: string; key: string };

const whereKey = ({ projectId, key }: Scope) => and(eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key));

/**
 * Claims an Idempotency-Key for this request. "claimed": go ahead, then complete (in the
 * transaction that makes the change) or release it; "in_flight": another request holds it;
 * "completed": replay or refuse, depending on whether the content is the same.
 */
export async function claimIdempotencyKey(db: Db, scope: Scope): Promise<IdempotencyClaim> {
  const now = new Date();
  await db.delete(idempotencyKeys).where(and(whereKey(scope), lt(idempotencyKeys.expiresAt, now)));
  const [inserted] = await db
    .insert(idempotencyKeys)
    .values({ ...scope, requestHash: "", state: "in_flight", createdAt: now, expiresAt: new Date(now.getTime() + retentionMs) })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted) return { state: "claimed" };

  const [row] = await db.select().from(idempotencyKeys).where(whereKey(scope));
  if (!row) return claimIdempotencyKey(db, scope);
  if (row.state === "completed") {
    return { state: "completed", requestHash: row.requestHash, status: row.responseStatus!, body: row.responseBody };
  }
  if (now.getTime() - row.createdAt.getTime() > abandonedAfterMs) {
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(and(whereKey(scope), eq(idempotencyKeys.state, "in_flight"), eq(idempotencyKeys.createdAt, row.createdAt)))
      .returning({ key: idempotencyKeys.key });
    if (taken) return { state: "claimed" };
  }
  return { state: "in_flight" };
}

/** Records the response to replay; call inside the transaction that commits the change. */
export async function completeIdempotencyKey(tx: Db, scope: Scope, result: { requestHash: string; status: number; body: unknown }) {
  await tx
    .update(idempotencyKeys)
    .set({
      state: "completed",
      requestHash: result.requestHash,
      responseStatus: result.status,
      responseBody: result.body,
      expiresAt: new Date(Date.now() + retentionMs),
    })
    .where(whereKey(scope));
}

/** Frees a claimed key after a failure, so that a retry with the same key runs again. */
export async function releaseIdempotencyKey(db: Db, scope: Scope) {
  await db.delete(idempotencyKeys).where(and(whereKey(scope), eq(idempotencyKeys.state, "in_flight")));
}
