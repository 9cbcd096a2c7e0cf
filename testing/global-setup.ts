import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { closeDb, getDb } from "@/lib/db";
import { createFreshDatabase } from "./fresh-database";
import { testSecrets } from "./test-secrets";

// Migrating takes seconds and every test file used to pay it: the run migrates one database
// here, through lib/db as the app does, and testing/setup.ts gives each file a copy of it
// (PGlite: a copy of the data directory; PostgreSQL: a database made from this one as template).

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR whose embedded database is migrated and closed (PGlite runs). */
    migratedDataDir?: string;
    /** A migrated database on DATABASE_URL's server that nobody stays connected to (PostgreSQL runs). */
    templateDatabase?: string;
  }
}

/** Runs lib/db's own open-and-migrate with these variables, then closes the database. */
async function migrateWith(env: Record<string, string>): Promise<void> {
  const set = { ...testSecrets, ...env };
  const saved = Object.fromEntries(Object.keys(set).map((key) => [key, process.env[key]]));
  Object.assign(process.env, set);
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
  try {
    await getDb();
  } finally {
    await closeDb();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-test-template-"));
    const remove = async () => rmSync(dataDir, { recursive: true, force: true });
    try {
      await migrateWith({ DATA_DIR: dataDir });
    } catch (error) {
      await remove();
      throw error;
    }
    project.provide("migratedDataDir", dataDir);
    return remove;
  }

  const template = await createFreshDatabase(databaseUrl, "template");
  try {
    await migrateWith({ DATABASE_URL: template.url });
  } catch (error) {
    await template.drop();
    throw error;
  }
  project.provide("templateDatabase", template.name);
  return template.drop;
}
