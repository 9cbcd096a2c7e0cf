import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkContract, describeReport, readContractLog, type OpenApiDocument } from "../testing/contract-check";
import { logOutputTo, startApp } from "../testing/start-app";
import { applyTrustedProxies } from "./own-instance";

/** What the tests read from the environment besides E2E_BASE_URL; an external app must provide them all. */
const externalVariables = ["E2E_DATA_DIR", "E2E_ADMIN_EMAIL", "E2E_ADMIN_PASSWORD", "E2E_API_TOKEN", "E2E_PROJECT_ID", "E2E_SHARE_URL"];

/**
 * Starts the product exactly as the README's quick start does (`npm start`, which builds
 * when needed), on a fresh DATA_DIR and a free port, and hands the printed demo
 * credentials to the tests through the environment, and what the app prints in the file
 * E2E_APP_LOG. The database is the embedded PGlite, or the PostgreSQL server of
 * E2E_DATABASE_URL (CI gives it a fresh database).
 *
 * With E2E_EXTERNAL_BASE_URL the tests run against an app that is already running there
 * instead (reliability/scale-out.spec.ts: several processes behind a proxy); the caller sets
 * the other E2E_ variables from that app's start banner, and E2E_DATABASE_URL to its database.
 */
export default async function globalSetup() {
  const external = process.env.E2E_EXTERNAL_BASE_URL;
  if (external) {
    const missing = externalVariables.filter((name) => !process.env[name]);
    if (missing.length > 0) throw new Error(`E2E_EXTERNAL_BASE_URL needs ${missing.join(", ")} as well.`);
    process.env.E2E_BASE_URL = external;
    return;
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-e2e-"));
  const contractLog = startContractLog();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TOKEN_SECRETS;
  delete env.AUTH_SECRET;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  // Webhook specs receive deliveries on loopback, which the product refuses by default.
  env.WEBHOOK_ALLOW_PRIVATE = "1";
  applyTrustedProxies(env);
  const app = await startApp(env);
  // What the app prints, for specs that read its log (the reliability suite looks for uncaught errors).
  const appLog = path.join(dataDir, "app.log");
  logOutputTo(app, appLog);

  // The document clients get: what the suite's answers are held to at the end.
  const document = (await (await fetch(`${app.baseUrl}/api/openapi.json`)).json()) as OpenApiDocument;

  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_APP_LOG = appLog;
  process.env.E2E_ADMIN_EMAIL = app.adminEmail;
  process.env.E2E_ADMIN_PASSWORD = app.adminPassword;
  process.env.E2E_API_TOKEN = app.token;
  process.env.E2E_PROJECT_ID = app.projectId;
  process.env.E2E_SHARE_URL = app.shareUrl;

  return async () => {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    checkContractLog(contractLog, document);
  };
}

/**
 * The file every server the suite starts records its /api and /analytics answers in
 * (scripts/serve.mjs): this app's, and through the environment the workers inherit, those the
 * specs start of their own. Kept under test-results/, so that `npx tsx testing/contract-check.ts
 * <file>` can check it again after a change to the document.
 */
function startContractLog(): string {
  const file = path.resolve("test-results", `contract-${process.env.CI_REPORT_NAME ?? (process.env.E2E_DATABASE_URL ? "postgres" : "pglite")}-${Date.now()}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "");
  process.env.REELBIND_CONTRACT_LOG = file;
  return file;
}

/** Fails the run when an answer the suite received is not one the OpenAPI document declares. */
function checkContractLog(file: string, document: OpenApiDocument) {
  const report = checkContract(readContractLog(file), document);
  const description = `${describeReport(report)}\n  (log: ${path.relative(process.cwd(), file)})`;
  if (report.mismatches.length > 0) throw new Error(description);
  console.log(description);
}
