import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getConfig } from "@/lib/config";
import { acquireDataDirLock } from "./data-dir-lock";
import * as schema from "./schema";

export { schema };

/** A database or a transaction: verbs accept either and never care which driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Connection = { db: Db; close: () => Promise<void>; driver: "pglite" | "postgres" };

const migrationsFolder = path.join(process.cwd(), "drizzle");
// Any constant works; it only has to be the same for every process migrating this database.
const migrationLockId = 720_114_233;

async function openPostgres(url: string): Promise<Connection> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");

  // Migrations run on one dedicated connection holding an advisory lock, so several
  // app instances (or test workers) starting together apply them exactly once.
  const migrationClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrationClient`select pg_advisory_lock(${migrationLockId})`;
    await migrate(drizzle({ client: migrationClient }), { migrationsFolder });
    await migrationClient`select pg_advisory_unlock(${migrationLockId})`;
  } finally {
    await migrationClient.end();
  }

  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzle({ client, schema }) as unknown as Db;
  return { db, driver: "postgres", close: () => client.end() };
}

async function openPglite(dataDir: string): Promise<Connection> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");

  mkdirSync(dataDir, { recursive: true });
  const releaseLock = acquireDataDirLock(dataDir);
  const client = await PGlite.create(path.join(dataDir, "pglite"));
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    driver: "pglite",
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

// Next.js may load this module once per route bundle; the connection must still be one per process.
const connectionKey = Symbol.for("reelbind.db");
type ConnectionHolder = { [connectionKey]?: Promise<Connection> };
const holder = globalThis as ConnectionHolder;

function connection(): Promise<Connection> {
  if (!holder[connectionKey]) {
    const config = getConfig();
    const opening = config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
    holder[connectionKey] = opening;
    opening.catch(() => {
      if (holder[connectionKey] === opening) holder[connectionKey] = undefined;
    });
  }
  return holder[connectionKey];
}

/** The process-wide database, migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await connection()).db;
}

export async function getDbDriver(): Promise<Connection["driver"]> {
  return (await connection()).driver;
}

export async function closeDb(): Promise<void> {
  const opening = holder[connectionKey];
  holder[connectionKey] = undefined;
  if (opening) await (await opening).close();
}
