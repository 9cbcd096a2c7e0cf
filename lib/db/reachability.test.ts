import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { httpStatusOf } from "@/lib/api/errors";
import { toAppError } from "@/lib/errors";
import { closeDb, getDb } from "@/lib/db";
import { freePort } from "@/testing/free-port";
import { startPrivatePostgres, type PrivatePostgres } from "@/testing/private-postgres";
import { noteUnreachable, requireReachable, watchConnect } from "./reachability";

// The pool of a PostgreSQL cluster of this file's own, stopped and started again: once a
// connection could not be opened, getDb refuses at once (503) instead of queueing every request
// for a connection attempt, and a probe finds the server back.

const configKey = Symbol.for("reelbind.config");
const savedUrl = process.env.DATABASE_URL;
let cluster: PrivatePostgres;

const useDatabase = (url: string | undefined) => {
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  delete (globalThis as Record<symbol, unknown>)[configKey];
};

/** What a request gets from the database now: "ok", or the code of the error (and its HTTP status). */
async function tryQuery(): Promise<string> {
  try {
    await (await getDb()).execute(sql`select 1`);
    return "ok";
  } catch (error) {
    return `${(error as { code?: string }).code} ${httpStatusOf(toAppError(error))}`;
  }
}

/** Polls until `condition` holds; the cap only guards against a hang. Resolves to the milliseconds it took. */
async function pollUntil(condition: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error("the condition does not hold yet");
    },
    { timeout: 100_000, interval: 50 },
  );
  return performance.now() - started;
}

describe("getDb while the PostgreSQL server is down", () => {
  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    await closeDb();
    useDatabase(cluster.url);
  }, 120_000);

  afterAll(async () => {
    await closeDb();
    useDatabase(savedUrl);
    cluster?.destroy();
  });

  it("refuses with 503 at once after a connection could not be opened, and a probe finds the server back", async ({ annotate }) => {
    expect(await tryQuery()).toBe("ok");
    await cluster.stop();

    // The first queries find the server gone (session terminated, connection refused); then the pool is not even asked.
    await pollUntil(async () => (await tryQuery()) === "DATABASE_UNREACHABLE 503");
    const whileDown = await Promise.all(Array.from({ length: 20 }, tryQuery));
    expect(new Set(whileDown)).toEqual(new Set(["DATABASE_UNREACHABLE 503"]));

    await cluster.start();
    // Recovery must happen; how long it takes is reported, not judged (the ≤ 10 s figure is
    // the reliability suite's to measure on a quiet machine).
    const recoveryMs = await pollUntil(async () => (await tryQuery()) === "ok");
    await annotate(`recovered ${Math.round(recoveryMs)} ms after the server was back`);
  }, 300_000);
});

describe("noteUnreachable", () => {
  it("runs one probe at a time however many requests fail, until a probe succeeds", async () => {
    let running = 0;
    let mostAtOnce = 0;
    let calls = 0;
    const probe = async () => {
      calls++;
      mostAtOnce = Math.max(mostAtOnce, ++running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      if (calls < 3) throw new Error("still down");
    };
    for (let i = 0; i < 10; i++) noteUnreachable(probe, "a test");
    expect(() => requireReachable()).toThrow(expect.objectContaining({ code: "DATABASE_UNREACHABLE" }));

    await vi.waitFor(() => expect(requireReachable).not.toThrow(), { timeout: 100_000, interval: 20 });
    expect({ calls, mostAtOnce }).toEqual({ calls: 3, mostAtOnce: 1 });
  });
});

/** A server that answers every connection with `first` (what PostgreSQL sends before a session starts). */
async function answeringServer(first: Buffer) {
  const server = net.createServer((socket) => socket.end(first));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A backend message: its type byte, its length, its body. */
function message(type: string, body: Buffer) {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

/** A server that accepts connections and never says a word. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise((resolve) => server.close(resolve));
  };
  return { port: (server.address() as net.AddressInfo).port, close };
}

describe("watchConnect", () => {
  it("a server that accepts the connection but never answers → unreachable once the client gives up on it", async () => {
    const server = await silentServer();
    let noted = false;
    const socket = watchConnect(net.connect({ host: "127.0.0.1", port: server.port }), () => (noted = true));
    await new Promise((resolve) => socket.once("connect", resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(noted).toBe(false);
    socket.destroy(); // what postgres.js does when its connect_timeout fires
    await new Promise((resolve) => socket.once("close", resolve));
    await server.close();
    expect(noted).toBe(true);
  });

  const shuttingDown = message("E", Buffer.from("SFATAL\0C57P03\0Mthe database system is shutting down\0\0"));
  const authenticationOk = message("R", Buffer.from([0, 0, 0, 0]));

  it.each([
    { server: "nobody listens on the port", first: null, why: /^connecting failed: ECONNREFUSED, after \d+ ms$/ },
    { server: "the server's first message is an error (shutting down)", first: shuttingDown, why: /^the server refused the session: the database system is shutting down$/ },
    { server: "the server asks for authentication", first: authenticationOk, why: null },
    { server: "the server hangs up without a word", first: Buffer.alloc(0), why: /^the connection closed before the server answered, after \d+ ms$/ },
  ])("$server → unreachable, and why: $why", async ({ first, why }) => {
    const server = first ? await answeringServer(first) : null;
    const port = server?.port ?? (await freePort());
    let noted: string | null = null;
    const socket = watchConnect(net.connect({ host: "127.0.0.1", port }), (reason) => (noted = reason));
    socket.on("error", () => {});
    socket.resume();
    await new Promise((resolve) => socket.once("close", resolve));
    await server?.close();
    if (why) expect(noted).toMatch(why);
    else expect(noted).toBeNull();
  });
});
