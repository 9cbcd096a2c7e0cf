import { existsSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import type { PeriodicTask } from "@/lib/jobs/periodic-task";
import { startRollupLoop, type RollupLoopStatus } from "./rollup-loop";
import { rollupJobHolder as holder } from "./rollup-status";

// Where the server runs the rollup job. On PostgreSQL, in a worker thread with connections of
// its own (the bundle scripts/build-app.mjs makes from rollup-worker.ts): its CPU work (reading
// events, computing sessions' contributions, merging rows) stays off the event loop that answers
// ingest and reports. On PGlite, in the server's own thread: PGlite is this process's one
// connection, and an embedded install's traffic is small. /api/health reads its status
// (rollup-status.ts).

/** The worker's bundle, built beside Next's output. */
export const rollupWorkerFile = path.join(process.cwd(), ".next", "reelbind", "rollup-worker.mjs");
/** A stopping worker gets this long to finish its chunk and close its connections. */
const stopGraceMs = 10_000;
/** A worker that ended on its own is started again after this long. */
const restartDelayMs = 2_000;

/** Starts the job: a worker thread on PostgreSQL when its bundle is built, else a loop in this thread. */
export function startRollupJob(): PeriodicTask {
  const { databaseUrl } = getConfig();
  if (databaseUrl && existsSync(rollupWorkerFile)) return startWorker(databaseUrl);
  if (databaseUrl) console.warn(`The rollup worker's bundle is missing (${rollupWorkerFile}); the rollup job runs in the server's thread.`);
  holder().runner = "in-process";
  return startRollupLoop({ db: getDb, onStatus: (status) => (holder().status = status) });
}

function startWorker(databaseUrl: string): PeriodicTask {
  holder().runner = "worker";
  let stopping = false;
  let current: { exited: Promise<void>; worker: import("node:worker_threads").Worker };
  const start = () => {
    // Taken at run time: the bundler would otherwise try to bundle the Worker's file itself.
    const { Worker } = process.getBuiltinModule("node:worker_threads");
    const worker = new Worker(rollupWorkerFile, { workerData: { databaseUrl } });
    worker.on("message", (status: RollupLoopStatus) => (holder().status = status));
    worker.on("error", (error) => console.error("The analytics rollup worker failed:", error));
    const exited = new Promise<void>((resolve) =>
      worker.once("exit", () => {
        resolve();
        // Ended without being asked (an error it could not survive): a new one takes over.
        if (!stopping) setTimeout(() => !stopping && start(), restartDelayMs).unref();
      }),
    );
    current = { exited, worker };
  };
  start();
  return {
    stop: async () => {
      stopping = true;
      current.worker.postMessage("stop");
      const timer = setTimeout(() => void current.worker.terminate(), stopGraceMs);
      await current.exited;
      clearTimeout(timer);
    },
  };
}
