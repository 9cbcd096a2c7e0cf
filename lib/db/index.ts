import { once } from "node:events";
import { mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getConfig } from "@/lib/config";
import { acquireDataDirLock } from "./data-dir-lock";
import * as schema from "./schema";

export { schema };

/** A database or a transaction: verbs accept either and never care which driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Loads rows given in COPY's text format with `COPY … FROM STDIN`, all or none. */
export type CopyIn = (statement: string, data: string) => Promise<void>;

/** The server refused a COPY's rows (a duplicate key, a bad value…); nothing was written. */
export class CopyRejectedError extends Error {
  constructor() {
    super("The database refused the copied rows; none were written.");
    this.name = "CopyRejectedError";
  }
}

/** An error the server answered with (it has a SQLSTATE and a severity), not a broken connection. */
function isServerError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "severity" in error && "code" in error;
}

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
  const clientOptions = { max: 10, onnotice: () => {}, socket: connectWithoutDelay };
  const client = postgres(url, clientOptions);
  const db = drizzle({ client, schema }) as unknown as Db;
  const copyIn: CopyIn = async (statement, data) => {
    // postgres.js 3.4.9 never settles a COPY the server rejects after CopyDone (its issue
    // #1173), so the COPY runs in a transaction and the COMMIT tells: a transaction whose
    // COPY failed answers COMMIT with the tag ROLLBACK.
    const connection = await client.reserve();
    let committed: { command: string };
    try {
      await connection.unsafe("begin");
      const stream = await connection.unsafe(statement).writable();
      await new Promise<void>((resolve, reject) => {
        stream.once("error", reject);
        stream.write(data, (error) => (error ? reject(error) : resolve()));
      });
      stream.end(); // nothing is left to write, so CopyDone goes out at once, ahead of the COMMIT
      committed = await connection.unsafe("commit");
    } catch (error) {
      // Refused before the COMMIT (or the connection broke): end the transaction so the
      // connection goes back to the pool clean.
      await connection.unsafe("rollback").catch(() => {});
      throw isServerError(error) ? new CopyRejectedError() : error;
    } finally {
      connection.release();
    }
    if (committed.command !== "COMMIT") throw new CopyRejectedError();
  };
  return { db, driver: "postgres", close: () => client.end(), copyIn };
}

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * The connection postgres.js would open, with Nagle's algorithm off: postgres.js writes a
 * COPY's data and its 5-byte CopyDone separately, and with Nagle on the CopyDone waits for
 * the server's delayed ACK — every COPY took ~44 ms instead of ~2 ms (docs/benchmarks.md).
 * Hosts are tried in order, as postgres.js does with a multi-host URL.
 */
async function connectWithoutDelay(options: SocketOptions): Promise<net.Socket> {
  const targets = options.path ? [{ path: options.path }] : options.host.map((host, i) => ({ host, port: options.port[i] ?? options.port[0]! }));
  let lastError: unknown;
  for (const target of targets) {
    const socket = net.connect({ ...target, noDelay: true });
    try {
      await once(socket, "connect");
      return socket;
    } catch (error) {
      lastError = error;
      socket.destroy();
    }
  }
  throw lastError;
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

/** COPY … FROM STDIN on a PostgreSQL server; undefined on PGlite. */
export async function getCopyIn(): Promise<CopyIn | undefined> {
  return (await connection()).copyIn;
}

export async function closeDb(): Promise<void> {
  const opening = holder[connectionKey];
  holder[connectionKey] = undefined;
  if (opening) await (await opening).close();
}
