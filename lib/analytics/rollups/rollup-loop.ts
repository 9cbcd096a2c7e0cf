import type { Db } from "@/lib/db";
import { startPeriodicTask, type PeriodicTask } from "@/lib/jobs/periodic-task";
import { refreshRollups } from "./refresh";

// The rollup job as a periodic task, the same in the server's thread and in the worker
// (rollup-job.ts): roll up until caught up, then look again a moment later; a failure is logged
// once until it runs again (lib/jobs/periodic-task.ts). Its lag (how long the oldest event not
// yet rolled up has waited) goes to onStatus after every round, and to the log past a bound.

/** How long the job waits, once caught up, before it looks for new events. */
const idleMs = 1_000;
/** After a failure (the database down), it retries this often. */
const retryMs = 2_000;
/** Past this lag the log says so (at most every lagWarningEveryMs), and again once caught up. */
const lagWarningSeconds = 10;
const lagWarningEveryMs = 30_000;

export type RollupLoopStatus = {
  /** Seconds the oldest event not yet rolled up has waited (0: caught up). */
  lagSeconds: number;
  /** Projects with events not yet rolled up. */
  pendingProjects: number;
  /** When the job last looked, ISO. */
  checkedAt: string;
};

/** Starts the job on `db`; stopping it ends the round under way after its chunk. */
export function startRollupLoop({ db, onStatus }: { db: () => Promise<Db>; onStatus: (status: RollupLoopStatus) => void }): PeriodicTask {
  const stopping = new AbortController();
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
  const task = startPeriodicTask({
    name: "Analytics rollup job",
    run: async () => {
      await refreshRollups(await db(), {
        signal: stopping.signal,
        onProgress: ({ pendingProjects, oldestPendingAt }) =>
          report(oldestPendingAt ? Math.max(0, (Date.now() - oldestPendingAt.getTime()) / 1000) : 0, pendingProjects),
      });
      return undefined;
    },
    intervalMs: idleMs,
    retryMs,
  });
  return {
    stop: async () => {
      stopping.abort();
      await task.stop();
    },
  };
}
