import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { startPrivatePostgres } from "../lib/testing/private-postgres";
import { startApp, type StartedApp } from "../lib/testing/start-app";
import type { AppDatabase } from "./database-checks";

// Specs that stop, kill or starve the app start one of their own (never the app global-setup
// shares with the other specs), on a DATA_DIR of their own and, in the PostgreSQL run, a
// PostgreSQL cluster of their own.

/** The built app (`npm start`) on `database`; a restart on the same one reuses its data. */
export function startOwnApp({ url, dataDir }: AppDatabase): Promise<StartedApp> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TOKEN_SECRETS;
  delete env.AUTH_SECRET;
  if (url) env.DATABASE_URL = url;
  return startApp(env, 120_000);
}

/**
 * A DATA_DIR of the test's own, with the embedded PGlite — or, when the suite runs on
 * PostgreSQL (E2E_DATABASE_URL), a private cluster beside it.
 */
export async function createOwnDatabase(label: string): Promise<AppDatabase & { destroy: () => void }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `reelbind-${label}-`));
  const cluster = process.env.E2E_DATABASE_URL ? await startPrivatePostgres() : undefined;
  return {
    dataDir,
    url: cluster?.url,
    destroy: () => {
      cluster?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM, then SIGKILL to the whole process group if it has not exited 15 s later. */
export async function stopOwnApp(app: StartedApp | undefined): Promise<void> {
  if (!app || app.child.exitCode !== null || app.child.signalCode !== null) return;
  if ((await Promise.race([app.stop(), delay(15_000, "timeout")])) === "timeout") process.kill(-app.child.pid!, "SIGKILL");
}
