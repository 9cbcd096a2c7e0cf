import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/lib/db";
import { createFreshDatabase } from "./fresh-database";
import { testSecrets } from "./test-secrets";

// Each test file gets a database of its own, copied from the one testing/global-setup.ts
// migrated for the run: files running side by side never see each other's rows, locks or jobs.
// PGlite: a copy of the migrated data directory in the file's fresh DATA_DIR. PostgreSQL: a
// database made from the migrated template; DATABASE_URL names it for the file (and for the
// processes it starts).
const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-test-"));
process.env.DATA_DIR = dataDir;
process.env.TOKEN_SECRETS ??= testSecrets.TOKEN_SECRETS;
process.env.AUTH_SECRET ??= testSecrets.AUTH_SECRET;
delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];

const migratedDataDir = inject("migratedDataDir");
const templateDatabase = inject("templateDatabase");
const serverUrl = process.env.DATABASE_URL;
let dropDatabase = async () => {};

if (serverUrl && templateDatabase) {
  const database = await createFreshDatabase(serverUrl, "file", { template: templateDatabase });
  process.env.DATABASE_URL = database.url;
  dropDatabase = async () => {
    await database.drop();
    process.env.DATABASE_URL = serverUrl;
  };
} else if (migratedDataDir) {
  cpSync(migratedDataDir, dataDir, { recursive: true });
}

afterAll(async () => {
  await closeDb();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});
