import PgBoss from "pg-boss";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { getDb, schema, type Db } from "@/lib/db";
import { processWide } from "@/lib/process-wide";
import { runRenderAttempt } from "./run-render";

// The render queue. On PostgreSQL: pg-boss (schema `pgboss`, its own small `pg` pool), so that
// every app process works on the same queue, each at most RENDER_CONCURRENCY renders at once; a
// job whose worker died expires and is retried by whichever worker is alive. On PGlite (one
// process by design): an in-process queue with the same cap that, at start, takes up the renders
// a previous run left queued or rendering. Both run the same attempt (run-render.ts); the
// renders row, not the queue, says where a render is.

export const renderQueueName = "render";

export type RenderQueueOptions = {
  /** The pg-boss queue (tests give each file its own: every worker on a queue takes its jobs). */
  queueName?: string;
  concurrency: number;
  /** pg-boss: a job active this long is taken for dead and retried. Longer than any render. */
  expireInSeconds: number;
  /** Delay before the first retry; doubled for each further one. */
  retryDelaySeconds: number;
  /** How often a worker looks for jobs (pg-boss; the in-process queue is told at once). */
  pollingIntervalSeconds: number;
  /** pg-boss maintenance (expiry of dead workers' jobs); also the sweep of renders left queued without a job. */
  maintenanceIntervalSeconds: number;
};

export const defaultQueueOptions = (): RenderQueueOptions => ({
  concurrency: getConfig().renderConcurrency,
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 10,
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 60,
});

export type RenderQueue = {
  /** Queues renders whose rows are committed as queued. */
  enqueue(renderIds: string[]): Promise<void>;
  /** Starts working on the queue (start-up); never throws: a database that is down is retried. */
  start(): Promise<void>;
  /** Stops taking renders, aborts the ones under way (they are queued again, not counted as attempts). Bounded. */
  stop(): Promise<void>;
};

/** How long stop() waits for aborted renders to record that they were interrupted. */
const stopWaitMs = 2500;

/** pg-boss retries a job this often at most; the renders row's own attempt count decides when a render fails. */
const jobRetryLimit = 10;

/** Renders queued longer than this without being taken are sent to the queue again (an enqueue that failed). */
const orphanAfterSeconds = 30;

/** A render stops a little before its job expires, so that it has ended when pg-boss hands the job out again. */
const renderTimeLimit = (options: RenderQueueOptions) => Math.max(1, options.expireInSeconds - 5);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Logs a failure once until the next success: a database outage is one message, not one a second. */
function outageLogger(name: string) {
  let failing = false;
  return {
    failed(error: unknown) {
      if (!failing) console.error(`${name} failed; retrying until it succeeds:`, error instanceof Error ? error.message : error);
      failing = true;
    },
    succeeded() {
      if (failing) console.log(`${name}: running again.`);
      failing = false;
    },
  };
}

/**
 * Renders queued for a while that have no pg-boss job (their enqueue failed during an outage).
 * Job ids are render ids, whatever the queue.
 */
async function orphanedRenders(db: Db, olderThanSeconds: number): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    select r.id from renders r
    where r.status = 'queued' and r.created_at < now() - make_interval(secs => ${olderThanSeconds})
      and not exists (select 1 from pgboss.job j where j.id = r.id)
    order by r.created_at
    limit 1000`);
  const rows = Array.isArray(result) ? result : (result as { rows: { id: string }[] }).rows;
  return rows.map((row) => row.id);
}

export function createPgBossQueue(databaseUrl: string, options: RenderQueueOptions, db: () => Promise<Db> = getDb): RenderQueue {
  const queueName = options.queueName ?? renderQueueName;
  let boss: PgBoss | null = null;
  let ready: Promise<PgBoss> | null = null;
  let stopped = false;
  let working = false;
  const abort = new AbortController();
  const log = outageLogger("Render queue (pg-boss)");
  let sweeper: NodeJS.Timeout | undefined;

  const open = (): Promise<PgBoss> => {
    ready ??= (async () => {
      const instance = new PgBoss({
        connectionString: databaseUrl,
        schema: "pgboss",
        max: 2,
        application_name: "reelbind-renders",
        schedule: false,
        supervise: true,
        maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
      });
      instance.on("error", (error) => log.failed(error));
      await instance.start();
      if (!(await instance.getQueue(queueName))) {
        await instance
          .createQueue(queueName, {
            name: queueName,
            policy: "standard",
            retryLimit: jobRetryLimit,
            retryDelay: options.retryDelaySeconds,
            retryBackoff: true,
            expireInSeconds: options.expireInSeconds,
          })
          .catch(async (error: unknown) => {
            if (!(await instance.getQueue(queueName))) throw error; // another process made it meanwhile otherwise
          });
      }
      boss = instance;
      log.succeeded();
      return instance;
    })();
    ready.catch(() => {
      ready = null;
    });
    return ready;
  };

  const send = async (instance: PgBoss, renderIds: string[]) => {
    // The render's id is the job's: sending it twice (the sweep) adds nothing. One statement per batch.
    for (let i = 0; i < renderIds.length; i += 1000) {
      const batch = renderIds.slice(i, i + 1000);
      await instance.insert(batch.map((renderId) => ({ name: queueName, id: renderId, data: { renderId }, expireInSeconds: options.expireInSeconds })));
    }
  };

  const sweep = async () => {
    try {
      await send(await open(), await orphanedRenders(await db(), orphanAfterSeconds));
      log.succeeded();
    } catch (error) {
      log.failed(error);
    }
  };

  const startWorking = async () => {
    while (!stopped && !working) {
      try {
        const instance = await open();
        for (let i = 0; i < options.concurrency; i++) {
          await instance.work<{ renderId: string }>(
            queueName,
            { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds },
            async ([job]) => {
              const outcome = await runRenderAttempt(await db(), job!.data.renderId, abort.signal, renderTimeLimit(options));
              // pg-boss retries a job whose handler threw, after the queue's backoff.
              if (outcome === "retry") throw new Error(`render ${job!.data.renderId} will be retried`);
            },
          );
        }
        working = true;
      } catch (error) {
        log.failed(error);
        await sleep(5000);
      }
    }
    if (working && !stopped) {
      void sweep();
      sweeper = setInterval(() => void sweep(), options.maintenanceIntervalSeconds * 1000);
      sweeper.unref();
    }
  };

  return {
    async enqueue(renderIds) {
      try {
        await send(await open(), renderIds);
      } catch (error) {
        // The rows are committed as queued: the sweep sends them once pg-boss answers again.
        log.failed(error);
      }
    },
    async start() {
      void startWorking();
    },
    async stop() {
      stopped = true;
      clearInterval(sweeper);
      abort.abort(new Error("The server is shutting down."));
      const instance = boss;
      if (!instance) return;
      await Promise.race([instance.stop({ graceful: true, wait: true, timeout: stopWaitMs }).catch(() => {}), sleep(stopWaitMs + 500)]);
    },
  };
}

export function createInProcessQueue(options: RenderQueueOptions, db: () => Promise<Db> = getDb): RenderQueue {
  const pending: string[] = [];
  const active = new Map<string, Promise<void>>();
  const retryTimers = new Set<NodeJS.Timeout>();
  const abort = new AbortController();
  const log = outageLogger("Render queue");
  let started = false;
  let stopped = false;
  let retries = new Map<string, number>();

  const pump = () => {
    while (started && !stopped && active.size < options.concurrency && pending.length > 0) {
      const renderId = pending.shift()!;
      const run = (async () => {
        const outcome = await runRenderAttempt(await db(), renderId, abort.signal, renderTimeLimit(options));
        if (outcome === "retry" && !stopped) {
          const count = (retries.get(renderId) ?? 0) + 1;
          retries.set(renderId, count);
          const timer = setTimeout(() => {
            retryTimers.delete(timer);
            add([renderId]);
          }, options.retryDelaySeconds * 1000 * 2 ** (count - 1));
          timer.unref();
          retryTimers.add(timer);
        } else {
          retries.delete(renderId);
        }
        log.succeeded();
      })()
        .catch((error: unknown) => {
          // The database was unreachable: the row is still queued or rendering; the next start, or a retry, takes it up.
          log.failed(error);
          const timer = setTimeout(() => {
            retryTimers.delete(timer);
            add([renderId]);
          }, 5000);
          timer.unref();
          retryTimers.add(timer);
        })
        .finally(() => {
          active.delete(renderId);
          pump();
        });
      active.set(renderId, run);
    }
  };

  const add = (renderIds: string[]) => {
    for (const id of renderIds) if (!pending.includes(id) && !active.has(id)) pending.push(id);
    pump();
  };

  /** Renders a previous run of this process left behind: queued ones, and rendering ones it died during. */
  const recover = async () => {
    const database = await db();
    await database
      .update(schema.renders)
      .set({ status: "queued" })
      .where(eq(schema.renders.status, "rendering"));
    const rows = await database
      .select({ id: schema.renders.id })
      .from(schema.renders)
      .where(inArray(schema.renders.status, ["queued"]))
      .orderBy(asc(schema.renders.createdAt));
    add(rows.map((row) => row.id));
  };

  return {
    async enqueue(renderIds) {
      add(renderIds);
    },
    async start() {
      if (started) return;
      started = true;
      await recover().catch((error: unknown) => log.failed(error));
      pump();
    },
    async stop() {
      stopped = true;
      for (const timer of retryTimers) clearTimeout(timer);
      retries = new Map();
      abort.abort(new Error("The server is shutting down."));
      await Promise.race([Promise.allSettled(active.values()), sleep(stopWaitMs)]);
    },
  };
}

/** The process's render queue: pg-boss with DATABASE_URL, in-process on PGlite. */
export function getRenderQueue(): RenderQueue {
  return processWide("renders.queue", () => {
    const { databaseUrl } = getConfig();
    return databaseUrl ? createPgBossQueue(databaseUrl, defaultQueueOptions()) : createInProcessQueue(defaultQueueOptions());
  });
}

/** Queues committed renders; never throws (a render left queued is picked up by the sweep or the next start). */
export async function enqueueRenders(renderIds: string[]): Promise<void> {
  await getRenderQueue().enqueue(renderIds);
}

/** Starts this process's render worker (lib/server/start-up.ts); stop() is bounded. */
export function startRenderWorker(): { stop: () => Promise<void> } {
  const queue = getRenderQueue();
  void queue.start();
  return { stop: () => queue.stop() };
}
