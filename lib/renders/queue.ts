import { and, asc, inArray, lte, sql } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { schema, type Db } from "@/lib/db";
import { startLeaseWorker, type LeaseWorker } from "@/lib/jobs/lease-worker";
import { processWide } from "@/lib/process-wide";
import { runClaimedRender, type RenderRow } from "./run-render";

// The render queue is the renders table: a row queued, or rendering past its worker's lease, is
// due at its next_attempt_at. Every app process runs a lease worker (lib/jobs/lease-worker.ts)
// that claims due renders, at most RENDER_CONCURRENCY at once per process, on PostgreSQL and on
// PGlite alike. A render whose process died is claimed again once its lease runs out (that
// attempt counts); run-render.ts records each outcome and when a failed attempt is tried again.

export type RenderQueueOptions = {
  concurrency: number;
  /** A claimed render is its worker's for this long; a render is stopped a little before. Longer than any render. */
  leaseSeconds: number;
  /** Delay before the first retry; doubled for each further one. */
  retryDelaySeconds: number;
  /** How often a worker looks for renders queued by other processes (its own wake it at once). */
  pollMs: number;
};

export const defaultQueueOptions = (): RenderQueueOptions => ({
  concurrency: getConfig().renderConcurrency,
  leaseSeconds: 15 * 60,
  retryDelaySeconds: 10,
  pollMs: 2_000,
});

const renders = schema.renders;

/** How long stop() waits for aborted renders to record that they were interrupted. */
const stopWaitMs = 2_500;

/** A render stops a little before its lease runs out, so that it has ended when another worker may claim it. */
const renderTimeLimit = (options: RenderQueueOptions) => Math.max(1, options.leaseSeconds - 5);

/**
 * Claims up to `limit` due renders for this process: status rendering, one more attempt, leased
 * for `leaseSeconds`. Two processes claiming at once get disjoint sets (skip locked).
 */
export async function claimDueRenders(db: Db, limit: number, leaseSeconds: number): Promise<RenderRow[]> {
  const unfinished = inArray(renders.status, ["queued", "rendering"]);
  const due = db
    .select({ id: renders.id })
    .from(renders)
    .where(and(unfinished, lte(renders.nextAttemptAt, sql`now()`)))
    .orderBy(asc(renders.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(renders)
    .set({
      status: "rendering",
      attempts: sql`${renders.attempts} + 1`,
      startedAt: sql`now()`,
      error: null,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .where(and(inArray(renders.id, due), unfinished))
    .returning();
}

export type RenderQueue = {
  /** Tells this process's worker that renders were committed as queued. */
  enqueue(renderIds: string[]): Promise<void>;
  /** Starts working on the queue (start-up); never throws: a database that is down is retried. */
  start(): Promise<void>;
  /** Stops claiming, aborts the renders under way (they are queued again, not counted as attempts). Bounded. */
  stop(): Promise<void>;
};

export function createRenderQueue(options: RenderQueueOptions, db?: () => Promise<Db>): RenderQueue {
  let worker: LeaseWorker | null = null;
  return {
    async enqueue() {
      worker?.wake();
    },
    async start() {
      worker ??= startLeaseWorker({
        name: "Render queue",
        concurrency: options.concurrency,
        pollMs: options.pollMs,
        claim: (database, limit) => claimDueRenders(database, limit, options.leaseSeconds),
        run: async (database, row, signal) => {
          await runClaimedRender(database, row, { signal, timeLimitSeconds: renderTimeLimit(options), retryDelaySeconds: options.retryDelaySeconds });
        },
        ...(db ? { db } : {}),
      });
    },
    async stop() {
      await worker?.stop(stopWaitMs);
    },
  };
}

/** The process's render queue. */
export function getRenderQueue(): RenderQueue {
  return processWide("renders.queue", () => createRenderQueue(defaultQueueOptions()));
}

/** Tells the worker about committed renders; never throws (any process's worker finds them by polling anyway). */
export async function enqueueRenders(renderIds: string[]): Promise<void> {
  await getRenderQueue().enqueue(renderIds);
}

/** Starts this process's render worker (lib/server/start-up.ts); stop() is bounded. */
export function startRenderWorker(): { stop: () => Promise<void> } {
  const queue = getRenderQueue();
  void queue.start();
  return { stop: () => queue.stop() };
}
