import { bootstrapDemo, formatBootstrapBanner } from "@/lib/bootstrap/bootstrap";
import { publishAdminChannel } from "@/lib/cli/admin-channel";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";

/** Migrates the database (taking the DATA_DIR lock on PGlite), then bootstraps the demo data and prints it. */
export async function startServer(): Promise<void> {
  const config = getConfig();
  const db = await getDb();
  if (!config.databaseUrl) publishAdminChannel(config.dataDir, config.port);
  if (config.bootstrapOnStart) console.log(formatBootstrapBanner(await bootstrapDemo(db)));
}
