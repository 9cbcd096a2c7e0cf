import { startPartitionMaintenance } from "@/lib/analytics/partitions";
import { startRollupJob } from "@/lib/analytics/rollups/rollup-job";
import { bootstrapDemo, formatBootstrapBanner } from "@/lib/bootstrap/bootstrap";
import { publishAdminChannel } from "@/lib/cli/admin-channel";
import { getConfig, startUpWarnings } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db";
import { clientAddressResolver } from "@/lib/client-address";
import { drainIngestWriter } from "@/lib/ingest/handle-ingest";
import { startRenderWorker } from "@/lib/renders/queue";
import { dataResponseHeaders, transportSecurityHeaders } from "@/lib/security/response-headers";
import { cleanTempFiles } from "@/lib/storage";
import { startReleaseScheduler } from "@/lib/templates/release-scheduler";
import { startUploadSessionSweep } from "@/lib/templates/upload-sessions/sweep";
import { createNodeIngestHandler, takesIngestRequest } from "./node-ingest";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";
import type { PeriodicTask } from "@/lib/jobs/periodic-task";

/** Temp files of uploads older than this at start-up were left by a crash. */
const staleUploadMs = 60 * 60 * 1000;

let backgroundTasks: PeriodicTask[] | undefined;

/**
 * What the server (scripts/serve.mjs) calls on SIGTERM/SIGINT once it has answered the requests
 * in flight: commit queued analytics events, let a partition maintenance or rollup run finish and cut
 * webhook attempts in flight short (their lease hands them to the next run), then
 * close the database cleanly (PGlite flushes its files). Published on globalThis: the server is
 * not part of the app's bundles.
 */
async function shutDownApp(): Promise<void> {
  await Promise.all([drainIngestWriter(), ...(backgroundTasks ?? []).map((task) => task.stop())]);
  await closeDb();
}

/**
 * Migrates the database (taking the DATA_DIR lock on PGlite), starts the analytics partition
 * maintenance, the rollup job, the webhook delivery worker, the render worker, the upload-session sweep and the scheduled go-lives, then bootstraps the demo data and prints it. Publishes for the server
 * (scripts/serve.mjs) what to do on shutdown, the headers it puts on every response (static
 * files and Next's own answers included) and the ingest endpoints it answers itself.
 */
export async function startServer(): Promise<void> {
  const config = getConfig();
  for (const warning of startUpWarnings(config)) console.warn(warning);
  const db = await getDb();
  const published = globalThis as { [key: symbol]: unknown };
  published[Symbol.for("reelbind.app-shutdown")] = shutDownApp;
  published[Symbol.for("reelbind.response-headers")] = transportSecurityHeaders(config.publicBaseUrl);
  // The ingest endpoints, answered by the server before Next's router (docs/adr/0168-ingest-before-next.md):
  // the headers next.config.ts gives /analytics/*; the server has already set the ones above.
  published[Symbol.for("reelbind.ingest")] = { takes: takesIngestRequest, handle: createNodeIngestHandler({ headers: dataResponseHeaders, addressOf: clientAddressResolver(config) }) };
  // On PostgreSQL too: the CLI connects directly there, but tests seed through the channel
  // instead of a process per command. The file is 0600 in the server's own DATA_DIR: whoever
  // reads it is the server's user, who can read its environment and DATABASE_URL anyway.
  publishAdminChannel(config.dataDir, config.port);
  backgroundTasks ??= [startPartitionMaintenance(), ...(config.rollupJob ? [startRollupJob()] : []), startDeliveryWorker(), startRenderWorker(), startUploadSessionSweep(), startReleaseScheduler()];
  await cleanTempFiles(staleUploadMs).catch((error: unknown) => console.error("Cleaning upload temp files failed:", error));
  if (config.bootstrapOnStart) console.log(formatBootstrapBanner(await bootstrapDemo(db)));
}
