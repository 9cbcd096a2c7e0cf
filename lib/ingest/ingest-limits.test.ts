import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postConsent } from "@/app/analytics/v1/consent/route";
import { POST as postEvents } from "@/app/analytics/v1/events/route";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { createIngestServer } from "@/scripts/ingest-server";
import {
  batchRequest,
  consentUrl,
  eventBatch,
  expectAccepted,
  expectProblem,
  ingestTokenFor,
  manyEvents,
  newTenant,
  storedCount,
  wireEvent,
  type Tenant,
} from "@/testing/ingest";
import { eventBatchLimits } from "./validate-events";

// The per-project and per-address ingest limits through the Next route handlers, with limits
// so small that nothing refills while the file runs: one event every 1,000 s, a burst of one
// full batch (sharedIngestRateLimit's floor). The per-token limit stays at its default.

beforeAll(async () => {
  process.env.INGEST_PROJECT_RATE = "0.001";
  process.env.INGEST_ADDRESS_RATE = "0.001";
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
  expect([getConfig().ingestProjectRate, getConfig().ingestAddressRate]).toEqual([0.001, 0.001]);
  // Opening the database (migrations on a fresh PGlite) is not the first test's time to spend.
  await getDb();
}, 180_000);

const fullBatch = eventBatchLimits.maxEvents;
let nextAddress = 1;
/** An address no other test of this file uses. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

async function send(tenant: Tenant, address: string, n: number, token?: string) {
  const body = eventBatch(manyEvents(tenant, n));
  // Route handlers called directly have no socket: the address is X-Forwarded-For's rightmost entry (lib/client-address.ts).
  return postEvents(batchRequest({ token: token ?? (await ingestTokenFor(tenant)), body, headers: { "x-forwarded-for": address } }));
}

async function expectLimited(response: Response, limit: "project" | "address") {
  const problem = await expectProblem(response, 429);
  expect(problem.code).toBe("too_many_requests");
  expect(problem.detail).toBe(`Too many events ${limit === "project" ? "for this project" : "from this address"}; retry later.`);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

describe("POST /analytics/v1/events – per project and per address (429)", () => {
  it("fresh tokens of one project from fresh addresses → the project's burst, then 429 for the project; nothing stored past it", async () => {
    const tenant = newTenant();
    await expectAccepted(await send(tenant, freshAddress(), fullBatch), fullBatch);
    for (let i = 0; i < 3; i++) await expectLimited(await send(tenant, freshAddress(), 1), "project");
    expect(await storedCount(tenant.projectId)).toBe(fullBatch);
  });

  it("fresh tokens of several projects from one address → the address's burst, then 429 for the address", async () => {
    const address = freshAddress();
    const first = newTenant();
    await expectAccepted(await send(first, address, fullBatch), fullBatch);
    const others = [newTenant(), newTenant()];
    for (const tenant of others) await expectLimited(await send(tenant, address, 1), "address");
    expect(await storedCount(others[0]!.projectId)).toBe(0);
    // Another client is served.
    await expectAccepted(await send(others[0]!, freshAddress(), 1), 1);
  });

  it("a batch refused for its project → spends nothing of its address's bucket", async () => {
    const spent = newTenant();
    await expectAccepted(await send(spent, freshAddress(), fullBatch), fullBatch);
    const address = freshAddress();
    await expectLimited(await send(spent, address, fullBatch), "project");
    await expectAccepted(await send(newTenant(), address, fullBatch), fullBatch);
  });

  it("POST /analytics/v1/consent – counts against the same buckets: a spent project's beacon → 429", async () => {
    const tenant = newTenant();
    await expectAccepted(await send(tenant, freshAddress(), fullBatch), fullBatch);
    const token = await ingestTokenFor(tenant);
    const beacon = postConsent(
      batchRequest(
        { rawBody: JSON.stringify({ token, event: wireEvent(tenant, "consent.accepted") }), contentType: "text/plain", headers: { "x-forwarded-for": freshAddress() } },
        consentUrl,
      ),
    );
    await expectLimited(await beacon, "project");
  });
});

// The standalone ingest server (scripts/ingest-server.ts) owns its socket: the address is the
// socket's peer unless TRUSTED_PROXIES trusts it (lib/client-address.ts). Its clients connect
// from addresses of their own on the loopback network (127.0.0.0/8), so each is a client of its own.

const configKey = Symbol.for("reelbind.config");

/** An ingest server on 127.0.0.1 made with TRUSTED_PROXIES=`trusted` (unset when undefined). */
async function ingestServerTrusting(trusted: string | undefined): Promise<{ server: http.Server; port: number }> {
  const before = process.env.TRUSTED_PROXIES;
  if (trusted === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = trusted;
  delete (globalThis as Record<symbol, unknown>)[configKey];
  try {
    const server = createIngestServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, port: (server.address() as AddressInfo).port };
  } finally {
    if (before === undefined) delete process.env.TRUSTED_PROXIES;
    else process.env.TRUSTED_PROXIES = before;
    delete (globalThis as Record<symbol, unknown>)[configKey];
  }
}

/** POST /analytics/v1/events to 127.0.0.1:`port` from the local address `from`, with `forwardedFor` as X-Forwarded-For. */
async function sendFrom(port: number, from: string, forwardedFor: string, tenant: Tenant, n: number): Promise<Response> {
  const body = JSON.stringify(eventBatch(manyEvents(tenant, n)));
  const token = await ingestTokenFor(tenant);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/analytics/v1/events",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": forwardedFor, connection: "close" },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode!, headers: answer.headers as Record<string, string> })));
        answer.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("standalone ingest server – the client address of the per-address limit", () => {
  const servers: http.Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const start = async (trusted: string | undefined) => {
    const started = await ingestServerTrusting(trusted);
    servers.push(started.server);
    return started.port;
  };

  it("no proxy trusted: one client rotating X-Forwarded-For → its socket's burst, then 429 for the address; another client is served", async () => {
    const port = await start(undefined);
    await expectAccepted(await sendFrom(port, "127.0.0.11", "203.0.113.1", newTenant(), fullBatch), fullBatch);
    for (let i = 2; i < 5; i++) await expectLimited(await sendFrom(port, "127.0.0.11", `203.0.113.${i}, 10.0.0.1`, newTenant(), 1), "address");
    await expectAccepted(await sendFrom(port, "127.0.0.12", "203.0.113.1", newTenant(), 1), 1);
  });

  it("TRUSTED_PROXIES=127.0.0.1: behind that proxy, the entry it appended; a forged entry left of it changes nothing; an untrusted peer's header is ignored", async () => {
    const port = await start("127.0.0.1");
    // The proxy (127.0.0.1) appended its client's address, 198.51.100.21; the client forged the rest.
    await expectAccepted(await sendFrom(port, "127.0.0.1", "203.0.113.1, 198.51.100.21", newTenant(), fullBatch), fullBatch);
    await expectLimited(await sendFrom(port, "127.0.0.1", "203.0.113.2, 198.51.100.21", newTenant(), 1), "address");
    // Another client behind the proxy has a bucket of its own.
    await expectAccepted(await sendFrom(port, "127.0.0.1", "198.51.100.21, 198.51.100.22", newTenant(), 1), 1);
    // 127.0.0.13 is no trusted proxy: its X-Forwarded-For is ignored, and it spends its own bucket.
    await expectAccepted(await sendFrom(port, "127.0.0.13", "198.51.100.23", newTenant(), fullBatch), fullBatch);
    await expectLimited(await sendFrom(port, "127.0.0.13", "198.51.100.24", newTenant(), 1), "address");
    await expectAccepted(await sendFrom(port, "127.0.0.1", "198.51.100.23", newTenant(), 1), 1);
  });
});
