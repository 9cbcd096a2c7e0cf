import { existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getConfig } from "@/lib/config";
import { acquireDataDirLock } from "./data-dir-lock";
import { copyConnections, type CopyIn } from "./copy";
import { forgetUnreachable, noteUnreachable, requireReachable, watchConnect } from "./reachability";
import * as schema from "./schema";

export { CopyRejectedError, CopyTimeoutError, isCopyRejected, type CopyIn } from "./copy";
export { DatabaseUnreachableError } from "./reachability";

export { schema };

/** A database or a transaction: verbs accept either and never care which driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Connection = { db: Db; close: () => Promise<void>; driver: "pglite" | "postgres"; copyIn?: CopyIn };

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

  // `socket` is documented in postgres.js's README ("Custom socket") but missing from its types.
  // A connection that cannot be opened (or that the server refuses) makes the database
  // unreachable until a probe gets an answer.
  const probe = () => probePostgres(url);
  const socket = (options: SocketOptions) => watchConnect(connectWithoutDelay(options), (why) => noteUnreachable(probe, why));
  const clientOptions = { max: 10, onnotice: () => {}, socket, backoff: reconnectDelaySeconds, connect_timeout: connectTimeoutSeconds };
  const client = postgres(url, clientOptions);
  const db = drizzle({ client, schema }) as unknown as Db;
  const copy = copyConnections(() => postgres(url, { ...clientOptions, max: 1 }), 2);
  return {
    db,
    driver: "postgres",
    // Bounded: a connection left in any state by an outage must not hold the shutdown.
    close: async () => {
      await Promise.all([client.end({ timeout: closeTimeoutSeconds }), copy.close(closeTimeoutSeconds)]);
    },
    copyIn: copy.copyIn,
  };
}

/** How long closing waits for running queries before it ends their connections. */
const closeTimeoutSeconds = 3;
/** A probe of an unreachable server gives up connecting after this long. */
const probeTimeoutSeconds = 2;
/**
 * The pool gives up opening a connection after this long (postgres.js's default is 30 s): a
 * server that accepts connections but does not answer must not hold a request past its
 * client's patience; the failed attempt makes the database unreachable (503 at once).
 */
const connectTimeoutSeconds = 5;

/** One query on a connection of its own: is the server back? */
async function probePostgres(url: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const client = postgres(url, { max: 1, connect_timeout: probeTimeoutSeconds, onnotice: () => {} });
  try {
    await client`select 1`;
  } finally {
    await client.end({ timeout: 1 });
  }
}

/**
 * Seconds before the pool tries a lost connection again. postgres.js's default grows to 20 s
 * after a few failures, so after an outage requests queued for up to 20 s although the
 * database was back; this caps it at 1 s (50 ms, 100 ms, 200 ms … 1 s).
 */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1);
}

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * The connection postgres.js would open, with Nagle's algorithm off: postgres.js writes a
 * COPY's data and its 5-byte CopyDone separately, and with Nagle on the CopyDone waits for
 * the server's delayed ACK — every COPY took ~44 ms instead of ~2 ms (docs/benchmarks.md).
 * Returned before it connects, as postgres.js's own socket is: a failure to connect then
 * arrives as the socket's 'error' and 'close', which postgres.js answers by reconnecting (a
 * factory that threw instead left the connection stuck). A multi-host URL uses its first host.
 */
function connectWithoutDelay(options: SocketOptions): net.Socket {
  return options.path
    ? net.connect({ path: options.path, noDelay: true })
    : net.connect({ host: options.host[0], port: options.port[0]!, noDelay: true });
}

/**
 * PGlite's settings: PostgreSQL's own defaults but 16 MB of shared buffers instead of 128 MB.
 * The embedded database is one installation's, small and single-process; the buffers are most
 * of the memory it keeps (docs/benchmarks.md, "Memory at rest").
 */
async function pgliteOptions() {
  const { PGlite } = await import("@electric-sql/pglite");
  return { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] };
}

const pgliteDir = (dataDir: string) => path.join(dataDir, "pglite");

/**
 * Creates DATA_DIR's embedded database when it does not exist yet, and closes it. `npm start`
 * runs this in its preparing process: creating a cluster (initdb) leaves PGlite's memory at
 * several hundred MB that the process never gives back, and the server should not carry it.
 */
export async function createPgliteClusterIfMissing(dataDir: string): Promise<boolean> {
  if (existsSync(pgliteDir(dataDir))) return false;
  const { PGlite } = await import("@electric-sql/pglite");
  mkdirSync(dataDir, { recursive: true });
  const releaseLock = acquireDataDirLock(dataDir);
  try {
    const client = await PGlite.create(pgliteDir(dataDir), await pgliteOptions());
    await client.close();
  } finally {
    releaseLock();
  }
  return true;
}

async function openPglite(dataDir: string): Promise<Connection> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");

  mkdirSync(dataDir, { recursive: true });
  const releaseLock = acquireDataDirLock(dataDir);
  const client = await PGlite.create(pgliteDir(dataDir), await pgliteOptions());
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
  requireReachable();
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

/** The process-wide database, migrated on first use; DatabaseUnreachableError (503) at once while the server is unreachable. */
export async function getDb(): Promise<Db> {
  return (await connection()).db;
}

export async function getDbDriver(): Promise<Connection["driver"]> {
  return (await connection()).driver;
}

/** COPY … FROM STDIN on a PostgreSQL server; undefined on PGlite. */
export async function getCopyIn(): Promise<CopyIn | undefined> {
  return (await connection()).copyIn;
}

export async function closeDb(): Promise<void> {
  const opening = holder[connectionKey];
  holder[connectionKey] = undefined;
  forgetUnreachable();
  if (opening) await (await opening).close();
}
