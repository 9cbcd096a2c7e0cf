import { createRequire } from "node:module";
import net from "node:net";
import postgresEsm from "postgres";
import { describe, expect, it, vi } from "vitest";

// Two faults of postgres.js 3.4.9 that patches/postgres+3.4.9.patch mends (patches/README.md).
// Both surfaced as 503s seconds after a PostgreSQL restart, long after the app had recovered
// (reliability/load-and-faults.spec.ts): a connection closed with a query in flight replayed the
// old server's error onto the first query after it reconnected, and one closed while a write
// waited for the next turn of the event loop never sent anything again (CONNECT_TIMEOUT on every
// later connect). The ESM build is what the app and its bundles load, the CommonJS build what
// require() gets; both are patched.

const builds = { esm: postgresEsm, commonjs: createRequire(import.meta.url)("postgres") as typeof postgresEsm };

// Skipped on PGlite on purpose: these are faults of the PostgreSQL driver's connections; .ci/run runs them in its PostgreSQL pass.
describe.skipIf(!process.env.DATABASE_URL).each(Object.entries(builds))("postgres.js (%s build) after a connection closes (PostgreSQL only)", (_, postgres) => {
  const url = process.env.DATABASE_URL!;

  it("a backend terminated during a query: the query fails, and the next one on the reconnected connection gets its own answer", async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const pid = backend!.pid;
      const running = sql`select pg_sleep(600)`.then(
        () => "finished",
        (error: { code?: string }) => error.code,
      );
      await waitFor(async () => (await admin`select 1 from pg_stat_activity where pid = ${pid} and state = 'active'`).length === 1);
      await admin`select pg_terminate_backend(${pid})`;
      expect(await running).toMatch(/^(CONNECTION_CLOSED|57P01)$/);

      const [next] = await sql<{ n: number; pid: number }[]>`select 7::int as n, pg_backend_pid() as pid`;
      expect(next!.n).toBe(7);
      expect(next!.pid).not.toBe(pid);
    } finally {
      await Promise.all([sql.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
    }
  });

  it("a connection closed while a query's bytes wait to be written: the next query connects and is answered", async () => {
    let socket: net.Socket | undefined;
    // The socket option is documented in postgres.js's README ("Custom socket") but missing from its types.
    const { hostname, port } = new URL(url);
    const options = { max: 1, connect_timeout: 2, onnotice: () => {}, socket: () => (socket = net.connect({ host: hostname, port: Number(port || 5432) })) };
    const sql = postgres(url, options as Parameters<typeof postgres>[1]);
    try {
      await sql`select 1`;
      // Inside an immediate, postgres.js schedules the write for the next turn of the loop; the
      // socket's close arrives before that turn.
      const lost = await new Promise<Promise<unknown>>((resolve) =>
        setImmediate(() => {
          const query = sql`select 2`.execute();
          socket!.destroy();
          resolve(query.then(() => "answered", (error: { code?: string }) => error.code));
        }),
      );
      expect(await lost).toBe("CONNECTION_CLOSED");

      const [next] = await sql<{ n: number }[]>`select 3::int as n`;
      expect(next!.n).toBe(3);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

/** Polls until `check` holds; the cap only guards against a hang, it is no verdict on speed. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error("the condition does not hold yet");
    },
    { timeout: 100_000, interval: 20 },
  );
}
