import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { testSecrets } from "./test-secrets";

// The "units" project (vitest.config.ts): a file gets an empty DATA_DIR of its own for blobs and
// generated files, and no database. DATABASE_URL names a port nothing listens on, so a unit
// test that opens the database fails at once (connection refused); such a test belongs in a
// `*.test.ts` file, which runs on both databases.
const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-unit-"));
process.env.DATA_DIR = dataDir;
process.env.DATABASE_URL = "postgres://unit-tests-open-no-database@127.0.0.1:1/none";
process.env.TOKEN_SECRETS ??= testSecrets.TOKEN_SECRETS;
process.env.AUTH_SECRET ??= testSecrets.AUTH_SECRET;
delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
