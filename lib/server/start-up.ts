import { bootstrapDemo, formatBootstrapBanner } from "@/lib/bootstrap/bootstrap";
import { publishAdminChannel } from "@/lib/cli/admin-channel";
import { getConfig } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db";
import { drainIngestWriter } from "@/lib/ingest/handle-ingest";
import { cleanTempFiles } from "@/lib/storage";

/** Temp files of uploads older than this at start-up were left by a crash. */
const staleUploadMs = 60 * 60 * 1000;

/** On SIGTERM/SIGINT, commit queued analytics events, then close the database cleanly (PGlite flushes its files). */
function closeDatabaseOnSignals(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      drainIngestWriter()
        .then(closeDb)
        .catch((error: unknown) => console.error("Closing the database failed:", error))
        .finally(() => process.exit(0));
    });
  }
}

/** Migrates the database (taking the DATA_DIR lock on PGlite), then bootstraps the demo data and prints it. */
export async function startServer(): Promise<void> {
  const config = getConfig();
  const db = await getDb();
  // Next handles signals itself unless told (by scripts/start.mjs) to leave them to us.
  if (process.env.NEXT_MANUAL_SIG_HANDLE === "true") closeDatabaseOnSignals();
  if (!config.databaseUrl) publishAdminChannel(config.dataDir, config.port);
  await cleanTempFiles(staleUploadMs).catch((error: unknown) => console.error("Cleaning upload temp files failed:", error));
  if (config.bootstrapOnStart) console.log(formatBootstrapBanner(await bootstrapDemo(db)));
}
