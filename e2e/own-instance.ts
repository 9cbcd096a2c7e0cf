import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFreshDatabase, type FreshDatabase } from "../testing/fresh-database";
import { startApp, startAppInstance, type ServerProcess, type StartedApp } from "../testing/start-app";

// A second app instance of a spec's own, with settings the suite's app does not have (tiny
// limits, an https PUBLIC_BASE_URL…): a fresh DATA_DIR, and its own database when the suite runs
// on PostgreSQL (the suite's database belongs to the app global-setup started).

/**
 * The suite's apps trust the proxies E2E_TRUSTED_PROXIES names, none when it is unset: the
 * browser tests run on the default, the socket's peer as each client's address (the test client's
 * X-Forwarded-For ignored). The reliability suite, which plays many clients from one machine,
 * sets it to loopback (playwright.reliability.config.ts), so a test's own X-Forwarded-For
 * address is its address; so does the scale-out spec for the specs it runs behind its front.
 */
export function applyTrustedProxies(env: NodeJS.ProcessEnv): void {
  delete env.CLIENT_IP_HEADER;
  if (process.env.E2E_TRUSTED_PROXIES) env.TRUSTED_PROXIES = process.env.E2E_TRUSTED_PROXIES;
  else delete env.TRUSTED_PROXIES;
}

/** A fresh database named after `label` on E2E_DATABASE_URL's server, or undefined on PGlite. */
export async function createTestDatabase(label: string): Promise<FreshDatabase | undefined> {
  const serverUrl = process.env.E2E_DATABASE_URL;
  return serverUrl ? createFreshDatabase(serverUrl, label) : undefined;
}

export type OwnInstance = {
  app: StartedApp;
  /** Its DATA_DIR, which holds its admin channel (cliVia). */
  dataDir: string;
  /** Its PostgreSQL database; undefined on PGlite. */
  databaseUrl: string | undefined;
  /**
   * Stops the app and starts it again on the same DATA_DIR and database with `settings` changed
   * (an operator changing the configuration); resolves with the new process (a new port).
   */
  restart: (settings: Record<string, string>) => Promise<ServerProcess>;
  /** Stops the app (SIGKILL after 20 s), drops its database, removes its DATA_DIR. */
  stop: () => Promise<void>;
};

/** Starts the built app with `settings` on top of a clean environment (no secrets, base URLs or database of the suite's). */
export async function startOwnInstance(label: string, settings: Record<string, string>): Promise<OwnInstance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `reelbind-${label}-`));
  const database = await createTestDatabase(label);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const name of ["TOKEN_SECRETS", "AUTH_SECRET", "DATABASE_URL", "PUBLIC_BASE_URL", "INGEST_BASE_URL"]) delete env[name];
  if (database) env.DATABASE_URL = database.url;
  applyTrustedProxies(env);
  Object.assign(env, settings);
  const halt = async (server: ServerProcess) => {
    await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, "SIGKILL");
  };
  let running: ServerProcess | undefined;
  const stop = async () => {
    if (running) await halt(running);
    running = undefined;
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: StartedApp;
  try {
    app = await startApp(env, 240_000);
    running = app;
  } catch (error) {
    await stop();
    throw error;
  }
  const restart = async (changed: Record<string, string>) => {
    if (running) await halt(running);
    running = undefined;
    Object.assign(env, changed);
    running = await startAppInstance(env, 240_000);
    return running;
  };
  return { app, dataDir, databaseUrl: database?.url, restart, stop };
}

/** An app a spec sends requests to as many clients, each with an X-Forwarded-For address of its own. */
export type AddressTrustingApp = { baseUrl: string; dataDir: string; stop: () => Promise<void> };

/**
 * For specs that play many client addresses with X-Forwarded-For: the suite's app when it
 * trusts loopback (E2E_TRUSTED_PROXIES, above), else an instance of the spec's own that does.
 */
export async function startAddressTrustingApp(label: string): Promise<AddressTrustingApp> {
  if (process.env.E2E_TRUSTED_PROXIES === "loopback") {
    return { baseUrl: process.env.E2E_BASE_URL!, dataDir: process.env.E2E_DATA_DIR!, stop: async () => {} };
  }
  const instance = await startOwnInstance(label, { TRUSTED_PROXIES: "loopback" });
  return { baseUrl: instance.app.baseUrl, dataDir: instance.dataDir, stop: instance.stop };
}
