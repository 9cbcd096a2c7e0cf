import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/lib/db";

// Each test file gets a database of its own, copied from the one lib/testing/global-setup.ts
// migrated for the run: files running side by side never see each other's rows, locks or jobs.
// PGlite: a copy of the migrated data directory in the file's fresh DATA_DIR. PostgreSQL: a
// database made from the migrated template; DATABASE_URL names it for the file (and for the
// processes it starts).
const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-test-"));
process.env.DATA_DIR = dataDir;
process.env.TOKEN_SECRETS ??= "test:0123456789abcdef0123456789abcdef";
process.env.AUTH_SECRET ??= "test-auth-secret-0123456789abcdef0123";
delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];

const migratedDataDir = inject("migratedDataDir");
const templateDatabase = inject("templateDatabase");
const serverUrl = process.env.DATABASE_URL;
let dropDatabase = async () => {};

if (serverUrl && templateDatabase) {
  const name = `reelbind_file_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}" template "${templateDatabase}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
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
