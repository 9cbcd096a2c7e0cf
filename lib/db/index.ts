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

/**
 * The server refused a COPY's rows and nothing was written. `cause` is the server's error
 * when postgres.js reported it; a refusal found only at COMMIT comes without one.
 */
export class CopyRejectedError extends Error {
  constructor(cause?: unknown) {
    super("The database refused the copied rows; none were written.", { cause });
    this.name = "CopyRejectedError";
  }
}

/** An error the server answered a statement with, the session going on (severity ERROR): not a lost connection. */
function isStatementError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { severity?: unknown }).severity === "ERROR";
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
  const clientOptions = { max: 10, onnotice: () => {}, socket: connectWithoutDelay, backoff: reconnectDelaySeconds };
  const client = postgres(url, clientOptions);
  const db = drizzle({ client, schema }) as unknown as Db;
  const copy = copyConnections(() => postgres(url, { ...clientOptions, max: 1 }), 2);
  return {
    db,
    driver: "postgres",
    close: async () => {
      await client.end();
      await copy.close();
    },
    copyIn: copy.copyIn,
  };
}

type Sql = import("postgres").Sql;

/** A COPY that has not finished by then is given up (the caller answers 503; the SDK's retry is deduplicated). */
const copyTimeoutMs = 10_000;

/** The database did not finish a COPY in time; whether it committed is unknown. */
export class CopyTimeoutError extends Error {
  readonly code = "ETIMEDOUT";
  constructor() {
    super(`The database did not finish a COPY within ${copyTimeoutMs / 1000} s.`);
    this.name = "CopyTimeoutError";
  }
}

/**
 * COPY runs on connections of its own: postgres.js clients of one connection each, lent to one
 * COPY at a time (more wait their turn). On a one-connection client BEGIN, COPY and COMMIT are
 * plain queries in order — postgres.js's reserve() and begin() can leak a pooled connection or
 * write to a closed socket when the database drops connections mid-transaction. And when a
 * connection is lost mid-COPY, postgres.js 3.4.9 can leave that client's next queries
 * hanging (seen with a backend terminated mid-COPY), so a client whose COPY failed for any
 * reason but the rows themselves, or took longer than copyTimeoutMs, is closed and replaced.
 */
function copyConnections(open: () => Sql, count: number): { copyIn: CopyIn; close: () => Promise<void> } {
  const clients = Array.from({ length: count }, open);
  const idle = [...clients];
  const waiting: ((client: Sql) => void)[] = [];
  const lend = (): Promise<Sql> => {
    const client = idle.pop();
    return client ? Promise.resolve(client) : new Promise((resolve) => waiting.push(resolve));
  };
  const giveBack = (client: Sql) => {
    const next = waiting.shift();
    if (next) next(client);
    else idle.push(client);
  };
  const replace = (client: Sql): Sql => {
    void client.end({ timeout: 0 }).catch(() => {});
    const fresh = open();
    clients[clients.indexOf(client)] = fresh;
    return fresh;
  };
  return {
    copyIn: async (statement, data) => {
      const client = await lend();
      let usable = true;
      try {
        await withTimeout(copyInTransaction(client, statement, data), copyTimeoutMs);
      } catch (error) {
        usable = error instanceof CopyRejectedError;
        throw error;
      } finally {
        giveBack(usable ? client : replace(client));
      }
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.end()));
    },
  };
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new CopyTimeoutError()), ms)));
  work.catch(() => {}); // once given up, its own failure (the client is being closed) is expected
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * postgres.js 3.4.9 never settles a COPY the server refuses after CopyDone (its issue #1173,
 * fix open as #1183), so the COPY runs in a transaction and the COMMIT tells: a transaction
 * whose COPY failed answers COMMIT with the tag ROLLBACK.
 */
async function copyInTransaction(client: Sql, statement: string, data: string): Promise<void> {
  let committed: { command: string };
  try {
    await client.unsafe("begin");
    const stream = await client.unsafe(statement).writable();
    await new Promise<void>((resolve, reject) => {
      // A refusal or a lost connection destroys the stream with the cause, emitted as
      // 'error'; the write's own callback then only gets ERR_STREAM_DESTROYED.
      stream.on("error", reject);
      stream.write(data, (error) => error || resolve());
    });
    stream.end(); // nothing is left to write, so CopyDone goes out at once, ahead of the COMMIT
    committed = await client.unsafe("commit");
  } catch (error) {
    // Refused before the COMMIT: end the transaction. (A lost connection took it with it.)
    if (!isStatementError(error)) throw error;
    await client.unsafe("rollback").catch(() => {});
    throw new CopyRejectedError(error);
  }
  if (committed.command !== "COMMIT") throw new CopyRejectedError();
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
