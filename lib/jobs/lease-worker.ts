import { getDb, type Db } from "@/lib/db";

// The one job mechanism (docs/adr/0141-one-job-mechanism-lease-rows.md): work is a row of its
// own table (a render, a webhook delivery) that says when it is due. Every process runs a
// worker per kind of work; a worker claims due rows with `for update skip locked` and moves
// their due time ahead by a lease in the same statement, so processes share the work without
// doing anything twice, and a row whose process died is due again once its lease runs out.
// The same statements run on PostgreSQL and on PGlite. This file is the loop around the
// claims: how many at once, when to look again, being woken, logging an outage once, a
// bounded stop. What a claim and a run do is the kind of work's own.

export type LeaseWorkerOptions<Item> = {
  /** Names the worker in log lines. */
  name: string;
  /** Takes up to `limit` due rows for this process (and leases them). */
  claim: (db: Db, limit: number) => Promise<Item[]>;
  /** Works on one claimed row and records its outcome. A throw is an outage (logged, retried later). */
  run: (db: Db, item: Item, signal: AbortSignal) => Promise<void>;
  /** Rows worked on at once by this process. */
  concurrency: number;
  /** How often to look for due rows when nothing woke the worker. */
  pollMs: number;
  /** The pause after a failure (the database unreachable). */
  retryAfterFailureMs?: number;
  /** Runs before each look for due rows (periodic upkeep of the same kind of work). */
  beforeClaim?: (db: Db) => Promise<void>;
  /** Where the database comes from (tests give their own). */
  db?: () => Promise<Db>;
};

export type LeaseWorker = {
  /** Look for due rows now rather than at the next poll (work committed by this process). */
  wake: () => void;
  /** No claim starts after this; work under way is aborted. Resolves once it has ended, or after `waitMs`. */
  stop: (waitMs?: number) => Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startLeaseWorker<Item>({
  name,
  claim,
  run,
  concurrency,
  pollMs,
  retryAfterFailureMs = 5_000,
  beforeClaim,
  db = getDb,
}: LeaseWorkerOptions<Item>): LeaseWorker {
  const abort = new AbortController();
  const active = new Set<Promise<void>>();
  let failing = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;

  const failed = (error: unknown) => {
    if (!abort.signal.aborted && !failing) console.error(`${name} failed; retrying every ${retryAfterFailureMs / 1000} s until it succeeds:`, error instanceof Error ? error.message : error);
    failing = true;
  };
  const succeeded = () => {
    if (failing) console.log(`${name}: running again.`);
    failing = false;
  };

  /** Waits for `ms`, a wake-up, or a slot freed by finished work. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || abort.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  const start = (database: Db, item: Item) => {
    const work: Promise<void> = run(database, item, abort.signal)
      .then(succeeded, failed)
      .finally(() => {
        active.delete(work);
        wake();
      });
    active.add(work);
  };

  const loop = async () => {
    while (!abort.signal.aborted) {
      woken = false;
      let delay = pollMs;
      try {
        const database = await db();
        if (active.size < concurrency) {
          await beforeClaim?.(database);
          const items = abort.signal.aborted ? [] : await claim(database, concurrency - active.size);
          for (const item of items) start(database, item);
          // Slots left after a claim that found work: more may be due, so look again at once.
          // With every slot taken, finished work wakes the loop.
          if (items.length > 0 && active.size < concurrency) delay = 0;
        }
        succeeded();
      } catch (error) {
        failed(error);
        delay = retryAfterFailureMs;
      }
      if (delay > 0) await pause(delay);
    }
  };

  const running = loop();
  return {
    wake,
    async stop(waitMs = 2_500) {
      abort.abort(new Error("The server is shutting down."));
      wakeUp?.();
      await Promise.race([running.then(() => Promise.allSettled([...active])), sleep(waitMs)]);
    },
  };
}
