import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../lib/testing/free-port";

/** Reads one "  Label:  value" line of the start banner. */
function bannerValue(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`The start banner has no "${label}" line:\n${output}`);
  return match[1]!;
}

/**
 * Starts the product exactly as the README's quick start does (`npm start`, which builds
 * when needed), on a fresh DATA_DIR and a free port, and hands the printed demo
 * credentials to the tests through the environment. The database is the embedded PGlite,
 * or the PostgreSQL server of E2E_DATABASE_URL (`npm run test:e2e:postgres`; CI gives it a
 * fresh database).
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-e2e-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  delete env.TOKEN_SECRETS;
  delete env.AUTH_SECRET;
  const server = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });

  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The app did not start within 5 minutes:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/API token:.*\n[\s\S]*PROD share:.*\n/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    server.stdout.on("data", onData);
    server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The app exited with code ${code} before it was ready:\n${output}`));
    });
  });
  server.stdout.removeAllListeners("data");
  server.removeAllListeners("exit");
  server.stdout.resume();
  server.stderr.resume();

  process.env.E2E_BASE_URL = `http://localhost:${port}`;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_ADMIN_EMAIL = bannerValue(output, "Admin login");
  process.env.E2E_ADMIN_PASSWORD = bannerValue(output, "Password");
  process.env.E2E_API_TOKEN = bannerValue(output, "API token");
  process.env.E2E_PROJECT_ID = /Project:.*\(([0-9a-f-]{36})\)/.exec(output)![1]!;
  process.env.E2E_SHARE_URL = bannerValue(output, "PROD share");

  return async () => {
    // The start script forwards the signal to the Next server; the group kill catches both.
    process.kill(-server.pid!, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
