import { beforeAll, describe, expect, it } from "vitest";
import { POST as postConsent } from "@/app/analytics/v1/consent/route";
import { POST as postEvents } from "@/app/analytics/v1/events/route";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
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
} from "./ingest-test-helpers";
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
  return postEvents(batchRequest({ token: token ?? (await ingestTokenFor(tenant)), body, headers: { "x-forwarded-for": `${address}, 10.0.0.1` } }));
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
    // The first entry of X-Forwarded-For is the client: another client behind the same proxy is served.
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
