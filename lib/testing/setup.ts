import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { closeDb } from "@/lib/db";

// Each test file gets its own embedded database (or shares the PostgreSQL server named by
// DATABASE_URL, where factories keep files apart with fresh organizations and projects).
const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-test-"));
process.env.DATA_DIR = dataDir;
process.env.TOKEN_SECRETS ??= "test:0123456789abcdef0123456789abcdef";
process.env.AUTH_SECRET ??= "test-auth-secret-0123456789abcdef0123";
delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];

afterAll(async () => {
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});
