// COPY … FROM STDIN on a PostgreSQL server, for ingest's group commit (lib/ingest/store-events.ts).
// Most of what is here works around postgres.js 3.4.9; docs/adr/0034-ingest-endpoints.md
// says what and why.
import type { Sql } from "postgres";
import { hasErrorCode } from "@/lib/error-code";

/** Loads rows given in COPY's text format with `COPY … FROM STDIN`, all or none. */
export type CopyIn = (statement: string, data: string) => Promise<void>;

/**
 * The server refused a COPY's rows and nothing was written. `cause` is the server's error
 * when postgres.js reported it; a refusal found only at COMMIT comes without one.
 */
export class CopyRejectedError extends Error {
  readonly code = "COPY_REJECTED";
  constructor(cause?: unknown) {
    super("The database refused the copied rows; none were written.", { cause });
    this.name = "CopyRejectedError";
  }
}

/** True for a CopyRejectedError made by any bundle's copy of this module (lib/error-code.ts). */
export function isCopyRejected(error: unknown): boolean {
  return hasErrorCode(error, "COPY_REJECTED");
}

/** An error the server answered a statement with, the session going on (severity ERROR): not a lost connection. */
function isStatementError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { severity?: unknown }).severity === "ERROR";
}

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
export function copyConnections(open: () => Sql, count: number): { copyIn: CopyIn; close: (timeoutSeconds?: number) => Promise<void> } {
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
        usable = isCopyRejected(error);
        throw error;
      } finally {
        giveBack(usable ? client : replace(client));
      }
    },
    close: async (timeoutSeconds) => {
      await Promise.all(clients.map((client) => client.end({ timeout: timeoutSeconds })));
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
