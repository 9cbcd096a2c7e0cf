import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { freePort } from "@/testing/free-port";
import { mintIngestToken } from "@/lib/tokens/ingest-token";
import { strangerSecret } from "@/testing/tokens";
import { POST as postConsent } from "@/app/analytics/v1/consent/route";
import { POST as postEvents } from "@/app/analytics/v1/events/route";
import { createIngestServer } from "@/scripts/ingest-server";
import type { WireEvent } from "@/shared/events/wire-events";
import { templateRefusals } from "./project-templates";
import { drainQuarantine } from "./quarantine";
import {
  batchRequestInit,
  byteStream,
  configuredSecret,
  eventBatch,
  expectAccepted,
  expectProblem,
  ingestTokenFor,
  manyEvents,
  newTenant,
  quarantineCounts,
  storedCount,
  tenantWithTemplate,
  wireEvent,
  type BatchRequestOptions,
  type Tenant,
} from "@/testing/ingest";

// The standalone ingest server (scripts/ingest-server.ts; `npm run ingest` runs it through scripts/ingest.mjs) over real HTTP.
// It lives here rather than in scripts/ because vitest.config.ts includes lib/** and app/** only.

let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  // Open (and migrate) the database here, under the hook's budget: on a busy machine the first
  // request paying for it outlasted its own 15 s abort.
  await getDb();
  server = createIngestServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Only a guard against a request that hangs: no verdict waits on how fast the server answers.
const timeout = (ms = 100_000) => AbortSignal.timeout(ms);
const post = (pathname: string, options: BatchRequestOptions) => fetch(`${baseUrl}${pathname}`, { ...batchRequestInit(options), signal: timeout() });
/** On a connection of its own, so an answer given before its body was read cannot affect the next case. */
const postAlone = (pathname: string, options: BatchRequestOptions) =>
  post(pathname, { ...options, headers: { ...options.headers, connection: "close" } });

describe("standalone ingest server – routing", () => {
  it("POST /analytics/v1/events with a valid batch → 202, stored, Origin echoed", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant, { allowedOrigins: ["https://allowed.com"] });
    const response = await post("/analytics/v1/events", { token, origin: "https://allowed.com", body: eventBatch(manyEvents(tenant, 7)) });
    expect(response.headers.get("access-control-allow-origin")).toBe("https://allowed.com");
    await expectAccepted(response, 7);
    expect(await storedCount(tenant.projectId)).toBe(7);
  });

  it("POST /analytics/v1/events?source=sdk (a query string) → 202", async () => {
    const tenant = newTenant();
    await expectAccepted(await post("/analytics/v1/events?source=sdk", { token: await ingestTokenFor(tenant), body: eventBatch(manyEvents(tenant, 2)) }), 2);
  });

  it("POST /analytics/v1/consent as text/plain → 202, stored", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const rawBody = JSON.stringify({ token, event: wireEvent(tenant, "consent.declined") });
    await expectAccepted(await post("/analytics/v1/consent", { rawBody, contentType: "text/plain;charset=UTF-8" }), 1);
    expect(await storedCount(tenant.projectId)).toBe(1);
  });

  it("POST /analytics/v1/events under a token naming no template → the project's template stored, an unknown one quarantined", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const token = await ingestTokenFor(tenant, { template: null });
    const own = wireEvent(tenant, "video.played", { template_id: template.id, template_version: template.version });
    const unknown = wireEvent(tenant, "video.played", { template_id: randomUUID(), template_version: "1.0" });
    await expectAccepted(await post("/analytics/v1/events", { token, body: eventBatch([own, unknown]) }), 1, 0, 1);
    expect(await storedCount(tenant.projectId)).toBe(1);
    await drainQuarantine();
    expect(await quarantineCounts(tenant.projectId)).toEqual({ [templateRefusals.unknownId]: 1 });
  });

  it.each(["/analytics/v1/events", "/analytics/v1/consent"])("OPTIONS %s → 204 with the CORS preflight headers", async (pathname) => {
    const response = await fetch(`${baseUrl}${pathname}`, {
      method: "OPTIONS",
      headers: { origin: "https://allowed.com", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      signal: timeout(),
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://allowed.com");
    expect(response.headers.get("access-control-allow-methods")).toMatch(/\bPOST\b/);
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toMatch(/authorization/);
    expect(response.headers.get("vary")).toMatch(/\bOrigin\b/);
  });

  it.each<[string, string, number]>([
    ["POST", "/analytics/v1/events", 401],
    ["OPTIONS", "/analytics/v1/events", 204],
    ["GET", "/", 404],
  ])("%s %s → %i with nosniff, the sandbox CSP and no referrer, as the app's routes", async (method, pathname, status) => {
    const response = await fetch(`${baseUrl}${pathname}`, { method, signal: timeout() });
    expect(response.status).toBe(status);
    await response.arrayBuffer();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    // INGEST_BASE_URL is http in the tests: no HSTS (reliability/security-headers.spec.ts has the https case for the app).
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it.each<[string, string]>([
    ["GET", "/"],
    ["POST", "/analytics/v1/other"],
    ["POST", "/analytics/v1/events/extra"],
    ["POST", "/api/health"],
  ])("%s %s (unknown path) → 404", async (method, pathname) => {
    const response = await fetch(`${baseUrl}${pathname}`, { method, signal: timeout() });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });

  it.each<[string, string]>([
    ["GET", "/analytics/v1/events"],
    ["PUT", "/analytics/v1/events"],
    ["DELETE", "/analytics/v1/consent"],
  ])("%s %s → 405 with Allow: POST, OPTIONS", async (method, pathname) => {
    const response = await fetch(`${baseUrl}${pathname}`, { method, signal: timeout() });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toMatch(/POST/);
    await response.arrayBuffer();
  });
});

type Case = [name: string, status: number, build: (ctx: { tenant: Tenant; token: string }) => Promise<BatchRequestOptions> | BatchRequestOptions];

describe("standalone ingest server – the same answers as the route handler (one shared handler)", () => {
  it.each<Case>([
    ["no bearer token", 401, ({ tenant }) => ({ body: eventBatch(manyEvents(tenant, 2)) })],
    [
      "a token signed with another secret",
      401,
      async ({ tenant }) => ({
        token: (await mintIngestToken(tenant, { secrets: [{ kid: configuredSecret().kid, secret: strangerSecret.secret }] })).token,
        body: eventBatch(manyEvents(tenant, 2)),
      }),
    ],
    ["an Origin outside allowed_origins", 403, ({ tenant, token }) => ({ token, origin: "https://allowed.com.evil.com", body: eventBatch(manyEvents(tenant, 2)) })],
    ["a 600 KB body (Content-Length)", 413, ({ token }) => ({ token, origin: "https://allowed.com", rawBody: " ".repeat(600 * 1024) })],
    ["501 events", 413, ({ tenant, token }) => ({ token, origin: "https://allowed.com", body: eventBatch(manyEvents(tenant, 501)) })],
    ["text/plain", 415, ({ tenant, token }) => ({ token, origin: "https://allowed.com", body: eventBatch(manyEvents(tenant, 2)), contentType: "text/plain" })],
    ["malformed JSON", 400, ({ token }) => ({ token, origin: "https://allowed.com", rawBody: '{"events": [' })],
    [
      "a schema error in the third event",
      422,
      ({ tenant, token }) => ({ token, origin: "https://allowed.com", body: eventBatch([...manyEvents(tenant, 2), wireEvent(tenant, "video.played", { playback_id: 0 })]) }),
    ],
  ])("%s → %i from both, with the same problem code and errors", async (_name, status, build) => {
    const answers = [];
    for (const via of ["route", "server"] as const) {
      const tenant = newTenant();
      const token = await ingestTokenFor(tenant, { allowedOrigins: ["https://allowed.com"] });
      const options = await build({ tenant, token });
      const response =
        via === "route"
          ? await postEvents(new Request("http://localhost:3000/analytics/v1/events", batchRequestInit(options)))
          : await postAlone("/analytics/v1/events", options);
      const problem = await expectProblem(response, status);
      answers.push({ code: problem.code, title: problem.title, errors: problem.errors, vary: response.headers.get("vary") });
      expect(await storedCount(tenant.projectId)).toBe(0);
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it("a streamed 513 KB body without Content-Length (chunked) → 413", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const { stream } = byteStream(513 * 1024);
    const response = await postAlone("/analytics/v1/events", { token, stream });
    await expectProblem(response, 413);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("the consent beacon with a video event → 422 from both", async () => {
    for (const via of ["route", "server"] as const) {
      const tenant = newTenant();
      const rawBody = JSON.stringify({ token: await ingestTokenFor(tenant), event: wireEvent(tenant, "video.played") });
      const options: BatchRequestOptions = { rawBody, contentType: "text/plain" };
      const response =
        via === "route"
          ? await postConsent(new Request("http://localhost:3000/analytics/v1/consent", batchRequestInit(options)))
          : await postAlone("/analytics/v1/consent", options);
      expect((await expectProblem(response, 422)).errors?.map((e) => e.path)).toContain("event.event_type");
    }
  });
});

describe("standalone ingest server – keep-alive after an answer given before the body was read", () => {
  // 401, 403, 413 (Content-Length) and 415 answer without reading the body. The rest of that
  // body must not stay in the connection: a browser reuses it for its next batch.
  it.each<[string, number, (tenant: Tenant, token: string) => BatchRequestOptions]>([
    ["401 (no token) to a 300 KB body", 401, (tenant) => ({ rawBody: JSON.stringify(eventBatch(manyEvents(tenant, 600))).slice(0, 300 * 1024) })],
    ["413 (Content-Length of 600 KB)", 413, (_tenant, token) => ({ token, rawBody: " ".repeat(600 * 1024) })],
    ["415 (text/plain) to a 300 KB body", 415, (_tenant, token) => ({ token, rawBody: " ".repeat(300 * 1024), contentType: "text/plain" })],
  ])("six requests in a row, each answered %s, then a valid batch – every one answered, none left hanging", async (_name, status, build) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    // A server of its own: fetch pools connections per origin, so no other test shares them.
    const own = createIngestServer();
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}/analytics/v1/events`;
    try {
      const statuses: (number | string)[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(url, { ...batchRequestInit(build(tenant, token)), signal: timeout() }).catch(
          (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.name,
        );
        statuses.push(typeof response === "string" ? response : response.status);
        if (typeof response !== "string") await response.arrayBuffer();
      }
      expect(statuses).toEqual(Array(6).fill(status));
      const valid = await fetch(url, { ...batchRequestInit({ token, body: eventBatch(manyEvents(tenant, 2)) }), signal: timeout() });
      await expectAccepted(valid, 2);
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });
});

// ── storage down: a child ingest server on its own PostgreSQL database ─────────────────────

/**
 * Polls `check` every 100 ms until it returns a value; the cap only guards against a hang.
 * `state` adds what was seen last to the error.
 */
async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, state?: () => string): Promise<T> {
  const ms = 100_000;
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}${state ? `; ${state()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Skipped on PGlite on purpose: it runs inside the test process, so there is no database server
// whose connections could be cut; .ci/run runs these in its PostgreSQL pass (npm run test:api).
describe.skipIf(!process.env.DATABASE_URL)("standalone ingest server – database unavailable (PostgreSQL only)", () => {
  const dbName = `reelbind_ingest_down_${randomBytes(6).toString("hex")}`;
  let admin: postgres.Sql;
  let direct: postgres.Sql;
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  let output = "";
  let childUrl: string;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/postgres";
    admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${dbName}"`);
    url.pathname = `/${dbName}`;
    direct = postgres(url.toString(), { max: 1, onnotice: () => {} });

    const port = await freePort();
    childUrl = `http://127.0.0.1:${port}/analytics/v1/events`;
    dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-ingest-down-"));
    child = spawn(process.execPath, ["scripts/ingest.mjs"], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: url.toString(), INGEST_PORT: String(port), INGEST_HOST: "127.0.0.1", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitFor("the child ingest server to listen", () => {
      if (child!.exitCode !== null) throw new Error(`the ingest server exited: ${output}`);
      return /listening/.test(output) ? true : undefined;
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child!.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await direct?.end({ timeout: 1 });
    if (admin) {
      await admin.unsafe(`alter database "${dbName}" allow_connections true`).catch(() => {});
      await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const childPost = (token: string, body: unknown) => fetch(childUrl, { ...batchRequestInit({ token, body }), signal: timeout() });

  /**
   * Terminates every session of the database (the child's pool included) and waits until none
   * is left. Should one outlive the cap, the failure names the sessions still there.
   */
  const terminateSessions = async () => {
    let left: Record<string, unknown>[] = [];
    await waitFor(
      "every session of the database to end",
      async () => {
        left = await admin<Record<string, unknown>[]>`
          select pid, application_name, backend_type, state, wait_event_type, wait_event, backend_start, left(query, 80) as query,
                 pg_terminate_backend(pid) as terminated
          from pg_stat_activity where datname = ${dbName}`;
        return left.length === 0 ? true : undefined;
      },
      () => `sessions still there: ${JSON.stringify(left)}\nthe ingest server's output:\n${output.slice(-3000)}`,
    );
  };

  const countRows = async (projectId: string) => {
    const [row] = await direct<{ n: number }[]>`select count(*)::int as n from analytics_events where project_id = ${projectId}`;
    return row!.n;
  };

  /** Sends `body` until it is not answered 503 (bounded), and returns that answer. */
  const sendUntilServed = (token: string, body: unknown) =>
    waitFor("a batch to be served again", async () => {
      const response = await childPost(token, body);
      return response.status === 503 ? void (await response.arrayBuffer()) : response;
    });

  it("connections terminated while the database still accepts new ones → the batch is served (202, or 503 then 202), stored once", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    await expectAccepted(await childPost(token, eventBatch(manyEvents(tenant, 3))), 3);
    await terminateSessions();
    const batch = eventBatch(manyEvents(tenant, 4));
    const first = await childPost(token, batch);
    expect([202, 503], await first.clone().text()).toContain(first.status);
    const served = first.status === 503 ? await sendUntilServed(token, batch) : first;
    await expectAccepted(served, 4);
    expect(await countRows(tenant.projectId)).toBe(7);
  });

  it("the database going away mid-load → every batch 202 or 503, each stored whole or not at all; once back, the 503s retried → every event stored once", async () => {
    const tenant = newTenant();
    // One token per sender, so the per-token rate limit stays out of the way.
    const tokens = await Promise.all(Array.from({ length: 8 }, () => ingestTokenFor(tenant)));
    const sent: { events: WireEvent[]; status: number; token: string }[] = [];
    let phase: "healthy" | "down" | "back" | "stop" = "healthy";
    const sentDuring = { healthy: 0, down: 0, back: 0, stop: 0 };
    // A sender stops at its first failure (no answer at all); the failure is reported below.
    const senders = tokens.map(async (token) => {
      while (phase !== "stop") {
        const during = phase;
        const events = manyEvents(tenant, 20);
        const response = await childPost(token, eventBatch(events));
        await response.arrayBuffer();
        sent.push({ events, status: response.status, token });
        sentDuring[during]++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const stopSenders = async () => {
      phase = "stop";
      const failed = (await Promise.allSettled(senders)).filter((result) => result.status === "rejected");
      return failed.map((result) => String((result as PromiseRejectedResult).reason));
    };
    // Each phase lasts until a round of batches begun in it has been answered, however long
    // that takes: the database goes away while batches are in flight, and comes back under load.
    const answeredIn = (during: keyof typeof sentDuring) =>
      waitFor(
        `${tokens.length} batches sent while ${during} to be answered`,
        () => (sentDuring[during] >= tokens.length ? true : undefined),
        () => `answered so far: ${JSON.stringify(sentDuring)}\nthe ingest server's output:\n${output.slice(-3000)}`,
      );

    let unanswered: string[] = [];
    try {
      await answeredIn("healthy");
      await admin.unsafe(`alter database "${dbName}" allow_connections false`);
      phase = "down";
      await terminateSessions();
      await answeredIn("down");
      await admin.unsafe(`alter database "${dbName}" allow_connections true`);
      phase = "back";
      await answeredIn("back");
    } finally {
      // Also when a phase failed: senders left running would outlive the test (and the server).
      unanswered = await stopSenders();
    }
    expect(unanswered, "batches that got no answer at all").toEqual([]);

    expect(new Set(sent.map((batch) => batch.status))).toEqual(new Set([202, 503]));
    expect(sentDuring.healthy).toBeGreaterThan(0);
    expect(sentDuring.down).toBeGreaterThan(0);
    // Whole or nothing per batch: a 202's events are all stored; a 503's all or none (its
    // COMMIT may have gone through before the connection broke — the retry then finds them).
    const storedOf = async (events: WireEvent[]) => {
      const [row] = await direct<{ n: number }[]>`
        select count(*)::int as n from analytics_events
        where project_id = ${tenant.projectId} and event_id = any(${events.map((event) => event.event_id)}::uuid[])`;
      return row!.n;
    };
    for (const batch of sent) {
      const stored = await storedOf(batch.events);
      if (batch.status === 202) expect(stored).toBe(20);
      else expect([0, 20]).toContain(stored);
    }
    for (const batch of sent.filter((batch) => batch.status === 503)) {
      const served = await sendUntilServed(batch.token, eventBatch(batch.events));
      const result = JSON.parse(await served.text()) as { accepted: number; duplicates: number };
      expect(served.status).toBe(202);
      expect(result.accepted + result.duplicates).toBe(20);
    }
    expect(await countRows(tenant.projectId)).toBe(sent.length * 20);
  }, 300_000);

  it("the database refusing connections → 503 with Retry-After, nothing written; once back, the retried batch → 202 in full", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    await expectAccepted(await childPost(token, eventBatch(manyEvents(tenant, 3))), 3);

    await admin.unsafe(`alter database "${dbName}" allow_connections false`);
    await terminateSessions();
    const failed = eventBatch(manyEvents(tenant, 4));
    const down = await childPost(token, failed);
    expect(down.status, `the ingest server's output:\n${output.slice(-3000)}`).toBe(503);
    const problem = await expectProblem(down, 503);
    expect(problem.code).toBe("service_unavailable");
    expect(Number(down.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    await admin.unsafe(`alter database "${dbName}" allow_connections true`);
    expect(await countRows(tenant.projectId)).toBe(3);
    await expectAccepted(await sendUntilServed(token, failed), 4, 0);
    expect(await countRows(tenant.projectId)).toBe(7);
  });
});
