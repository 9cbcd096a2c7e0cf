import type net from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { processWide } from "@/lib/process-wide";

// Once a connection to the PostgreSQL server could not be opened (nobody listens, or the server
// refuses sessions while it shuts down or starts up), the database counts as unreachable:
// requests are refused at once (503) instead of each queueing in the pool for a connection
// attempt of its own, which during an outage made every request wait seconds and piled them up
// (docs/reliability.md, "Faults survived"). One probe at a time looks for the server to be
// back; the first that gets an answer ends it.

const probeIntervalMs = 250;

export class DatabaseUnreachableError extends Error {
  readonly code = "DATABASE_UNREACHABLE";
  constructor() {
    super("The database server could not be reached a moment ago; it is probed until it answers again.");
    this.name = "DatabaseUnreachableError";
  }
}

const reachability = () => processWide("db.reachability", () => ({ unreachable: false }));

/** Throws DatabaseUnreachableError while the database counts as unreachable. */
export function requireReachable(): void {
  if (reachability().unreachable) throw new DatabaseUnreachableError();
}

/**
 * Counts the database unreachable until `probe` (a query on a connection of its own) succeeds.
 * `why` (what happened to the connection) goes into the one log line of the outage.
 */
export function noteUnreachable(probe: () => Promise<void>, why: string): void {
  const state = reachability();
  if (state.unreachable) return;
  state.unreachable = true;
  const since = Date.now();
  console.error(`The database server cannot be reached (${why}): requests are answered 503 until it answers again.`);
  void (async () => {
    while (state.unreachable) {
      await delay(probeIntervalMs, undefined, { ref: false });
      try {
        await probe();
        state.unreachable = false;
        console.log(`The database server answers again (unreachable for ${((Date.now() - since) / 1000).toFixed(1)} s).`);
      } catch {
        // Still down: probe again.
      }
    }
  })();
}

/** Forgets an outage (the pool was closed): the next pool starts out reachable. */
export function forgetUnreachable(): void {
  reachability().unreachable = false;
}

/** The first byte of the server's ErrorResponse message. */
const errorResponse = 0x45;

/**
 * Calls `onUnreachable` if `socket` cannot open a session: it fails before it connects (refused,
 * unreachable host, timeout), it closes before the server said a word (the server hung up, or
 * the pool's connect timeout gave up on a server that accepted the connection but never
 * answered), or the server's first message is an error (shutting down, starting up, too many
 * connections) where a session would start with an authentication request.
 */
export function watchConnect(socket: net.Socket, onUnreachable: (why: string) => void): net.Socket {
  // A failure to connect ends in 'close' too, with nothing received: one listener covers both.
  const openedAt = Date.now();
  let answered = false;
  let failure: string | undefined;
  socket.once("error", (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
  socket.once("close", () => {
    if (answered) return;
    const after = `after ${Date.now() - openedAt} ms`;
    onUnreachable(failure ? `connecting failed: ${failure}, ${after}` : `the connection closed before the server answered, ${after}`);
  });
  socket.once("data", (chunk: Buffer) => {
    answered = true;
    if (chunk[0] === errorResponse) onUnreachable(`the server refused the session: ${serverMessage(chunk)}`);
  });
  return socket;
}

/** The message (field M) of a backend ErrorResponse, or its code (field C). */
function serverMessage(chunk: Buffer): string {
  const fields = chunk.subarray(5).toString("utf8").split("\0");
  const field = (type: string) => fields.find((entry) => entry.startsWith(type))?.slice(1);
  return field("M") ?? field("C") ?? "an error";
}
