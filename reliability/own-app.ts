import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { startPrivatePostgres } from "../testing/private-postgres";
import { logOutputTo, startApp, type StartedApp } from "../testing/start-app";
import { startOwnInstance } from "../e2e/own-instance";
import type { AppDatabase } from "./database-checks";

// Specs that stop, kill or starve the app start one of their own (never the app global-setup
// shares with the other specs), on a DATA_DIR of their own and, in the PostgreSQL run, a
// PostgreSQL cluster of their own.

/** The built app (`npm start`) on `database`; a restart on the same one reuses its data. */
export function startOwnApp({ url, dataDir }: AppDatabase, settings: Record<string, string> = {}): Promise<StartedApp> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings, DATA_DIR: dataDir };
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

/** The variables through which specs find the suite's app (e2e/global-setup.ts sets them). */
const suiteAppVariables = [
  "E2E_BASE_URL",
  "E2E_DATA_DIR",
  "E2E_APP_LOG",
  "E2E_DATABASE_URL",
  "E2E_ADMIN_EMAIL",
  "E2E_ADMIN_PASSWORD",
  "E2E_API_TOKEN",
  "E2E_PROJECT_ID",
  "E2E_SHARE_URL",
] as const;

/**
 * Points this worker's suite variables at an app of the spec's own, started as global-setup
 * starts the suite's (its own DATA_DIR, database and log): for specs that count the app's rows
 * and blobs or read its log for errors, which nothing else may touch meanwhile. They can then
 * run beside the other specs instead of after them. Call it in beforeAll; the function it
 * returns (for afterAll) stops the app and gives the variables back.
 */
export async function useOwnSuiteApp(label: string): Promise<() => Promise<void>> {
  // Webhook victims receive deliveries on loopback, as on the suite's app.
  const instance = await startOwnInstance(label, { WEBHOOK_ALLOW_PRIVATE: "1" });
  const appLog = path.join(instance.dataDir, "app.log");
  logOutputTo(instance.app, appLog);
  const saved = Object.fromEntries(suiteAppVariables.map((name) => [name, process.env[name]]));
  const own: Record<(typeof suiteAppVariables)[number], string | undefined> = {
    E2E_BASE_URL: instance.app.baseUrl,
    E2E_DATA_DIR: instance.dataDir,
    E2E_APP_LOG: appLog,
    E2E_DATABASE_URL: instance.databaseUrl,
    E2E_ADMIN_EMAIL: instance.app.adminEmail,
    E2E_ADMIN_PASSWORD: instance.app.adminPassword,
    E2E_API_TOKEN: instance.app.token,
    E2E_PROJECT_ID: instance.app.projectId,
    E2E_SHARE_URL: instance.app.shareUrl,
  };
  const assign = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(own);
  return async () => {
    assign(saved);
    await instance.stop();
  };
}
