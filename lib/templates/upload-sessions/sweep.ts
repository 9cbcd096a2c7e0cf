import { and, eq, inArray, lt, or } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { getDb, schema, type Db } from "@/lib/db";
import { startPeriodicTask, type PeriodicTask } from "@/lib/jobs/periodic-task";
import { getS3Staging } from "@/lib/storage/s3-multipart";
import { discardStaging, localStaging } from "./staging";

const { templateUploadSessions } = schema;
/** Every 10 minutes, or every half TTL when sessions live shorter than 20 minutes (at least once a second). */
const sweepIntervalMs = (ttlSeconds: number) => Math.min(10 * 60 * 1000, Math.max(1000, (ttlSeconds * 1000) / 2));
const sweepRetryMs = 60 * 1000;
/** A completion still running after this long was abandoned (complete.ts takes it over the same way). */
const completingAbandonedMs = 15 * 60 * 1000;
const liveStatuses = ["open", "completing"];

/**
 * Ends sessions past their expiry (open ones, and completions abandoned by a dead process):
 * status expired, multipart uploads aborted, staged parts removed. Then removes staging that no
 * live session owns (a crash between a session's end and its clean-up).
 */
export async function sweepUploadSessions(db: Db, now = new Date()): Promise<{ expired: number; leftovers: number }> {
  const due = await db
    .select()
    .from(templateUploadSessions)
    .where(
      and(
        lt(templateUploadSessions.expiresAt, now),
        or(
          eq(templateUploadSessions.status, "open"),
          and(eq(templateUploadSessions.status, "completing"), lt(templateUploadSessions.updatedAt, new Date(now.getTime() - completingAbandonedMs))),
        ),
      ),
    )
    .limit(500);
  let expired = 0;
  for (const row of due) {
    const [ended] = await db
      .update(templateUploadSessions)
      .set({ status: "expired", updatedAt: now })
      .where(and(eq(templateUploadSessions.id, row.id), eq(templateUploadSessions.status, row.status)))
      .returning();
    if (!ended) continue;
    expired += 1;
    await discardStaging(ended).catch((error: unknown) => console.error(`Cleaning up expired upload session ${row.id} failed:`, error));
  }

  const liveAmong = async (ids: string[]) => {
    const valid = ids.filter((id) => /^[0-9a-f-]{36}$/.test(id));
    if (valid.length === 0) return new Set<string>();
    const rows = await db
      .select({ id: templateUploadSessions.id })
      .from(templateUploadSessions)
      .where(and(inArray(templateUploadSessions.id, valid), inArray(templateUploadSessions.status, liveStatuses)));
    return new Set(rows.map((row) => row.id));
  };
  let leftovers = await localStaging().discardOthers(liveAmong);
  const { storage } = getConfig();
  if (storage.driver === "s3") {
    const live = await db.select({ id: templateUploadSessions.id }).from(templateUploadSessions).where(inArray(templateUploadSessions.status, liveStatuses));
    const liveIds = new Set(live.map((row) => row.id));
    leftovers += await getS3Staging(storage).deleteStaged((id) => liveIds.has(id), new Date(now.getTime() - completingAbandonedMs));
  }
  return { expired, leftovers };
}

/** Every app process sweeps (sessions are claimed row by row, so processes do not collide). */
export function startUploadSessionSweep(): PeriodicTask {
  return startPeriodicTask({
    name: "Upload session sweep",
    run: async () => {
      const { expired, leftovers } = await sweepUploadSessions(await getDb());
      return expired + leftovers > 0 ? `Upload sessions: ${expired} expired, ${leftovers} leftover staging areas removed.` : undefined;
    },
    intervalMs: sweepIntervalMs(getConfig().uploadSessionTtlSeconds),
    retryMs: sweepRetryMs,
  });
}
