import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/lib/db";
import { startRollupLoop } from "./rollup-loop";

// The rollup job's worker thread (rollup-job.ts starts it; scripts/build-app.mjs bundles this
// file to .next/reelbind/rollup-worker.mjs). It has its own connections: two, one for the job's
// transaction and one for its look at what is pending. "stop" ends it after the chunk under way.

/** The worker thread's nice value (0 normal, 19 lowest). */
const workerNice = 10;
const { databaseUrl } = workerData as { databaseUrl: string };
// Below the request thread when the CPU is short: ingest answers first, the job takes what is left
// (on Linux a thread's priority is its own; elsewhere this is the process's, so it is skipped).
if (process.platform === "linux") setPriority(workerNice);
const client = postgres(databaseUrl, { max: 2, onnotice: () => {}, connect_timeout: 5 });
const db = drizzle({ client }) as unknown as Db;
const job = startRollupLoop({ db: async () => db, onStatus: (status) => parentPort!.postMessage(status) });
parentPort!.on("message", async (message) => {
  if (message !== "stop") return;
  await job.stop();
  await client.end({ timeout: 3 });
  parentPort!.close();
});
