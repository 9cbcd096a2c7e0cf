import { setTimeout as delay } from "node:timers/promises";
import type { Db } from "@/lib/db";
import { refreshRollups } from "./refresh";

// The rollup job's loop, the same in the server's thread and in the worker (rollup-job.ts): roll
// up until caught up, then look again a moment later. Its lag (how long the oldest event not yet
// rolled up has waited) goes to onStatus after every round, and to the log when it passes a bound.

/** How long the loop waits, once caught up, before it looks for new events. */
const idleMs = 1_000;
/** After a failure (the database down), the loop retries this often; the failure is logged once. */
const retryMs = 2_000;
/** Past this lag the log says so (at most every lagWarningEveryMs), and again once caught up. */
export const lagWarningSeconds = 10;
const lagWarningEveryMs = 30_000;

export type RollupLoopStatus = {
  /** Seconds the oldest event not yet rolled up has waited (0: caught up). */
  lagSeconds: number;
  /** Projects with events not yet rolled up. */
  pendingProjects: number;
  /** When the loop last looked, ISO. */
  checkedAt: string;
};

export async function runRollupLoop({
  db,
  signal,
  onStatus,
}: {
  db: () => Promise<Db>;
  signal: AbortSignal;
  onStatus: (status: RollupLoopStatus) => void;
}): Promise<void> {
  let failing = false;
  let warnedAt: number | null = null;
  const report = (lagSeconds: number, pendingProjects: number) => {
    onStatus({ lagSeconds, pendingProjects, checkedAt: new Date().toISOString() });
    if (lagSeconds > lagWarningSeconds && (warnedAt === null || Date.now() - warnedAt >= lagWarningEveryMs)) {
      console.warn(`Analytics rollups are ${Math.round(lagSeconds)} s behind (${pendingProjects} projects with events pending).`);
      warnedAt = Date.now();
    } else if (lagSeconds <= lagWarningSeconds && warnedAt !== null) {
      console.log("Analytics rollups have caught up.");
      warnedAt = null;
    }
  };
  while (!signal.aborted) {
    try {
      await refreshRollups(await db(), {
        signal,
        onProgress: ({ pendingProjects, oldestPendingAt }) =>
          report(oldestPendingAt ? Math.max(0, (Date.now() - oldestPendingAt.getTime()) / 1000) : 0, pendingProjects),
      });
      if (failing) console.log("Analytics rollup job: running again.");
      failing = false;
    } catch (error) {
      if (!failing) console.error(`Analytics rollup job failed; retrying every ${retryMs / 1000} s until it succeeds:`, error);
      failing = true;
    }
    await delay(failing ? retryMs : idleMs, undefined, { signal }).catch(() => undefined);
  }
}
