import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, schema, type Db } from "@/lib/db";
import { createTestProject } from "@/testing/factories";
import { attemptDelivery, claimDueDeliveries, maxAttemptLogEntries, runDueDeliveries, type AttemptLogEntry } from "./delivery-worker";
import { emitWebhookEvent } from "./emit";
import { getSigningSecret, rotateSigningSecret } from "./signing-keys";

// The worker against the real database (PGlite, or PostgreSQL with DATABASE_URL) and a real
// HTTP receiver on loopback, which answers what each test tells it to.

type Received = { headers: IncomingHttpHeaders; body: string };
type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

let db: Db;
let projectId: string;
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let answers: Answer[] = [];
let onRequest: (() => void) | undefined;

beforeAll(async () => {
  db = await getDb();
  projectId = (await createTestProject("Webhook worker")).project.id;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      onRequest?.();
      const answer = answers.shift() ?? { status: 204 };
      if (answer === "hang") return;
      res.writeHead(answer.status, answer.headers).end(answer.body ?? (answer.status >= 400 ? "receiver says no" : ""));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(async () => {
  received = [];
  answers = [];
  onRequest = undefined;
  // Every test starts with none of this project's deliveries due.
  await db.update(schema.webhookDeliveries).set({ status: "failed" }).where(eq(schema.webhookDeliveries.projectId, projectId));
});

const run = (options: { allowPrivate?: boolean; signal?: AbortSignal } = {}) =>
  runDueDeliveries(db, { allowPrivate: true, random: () => 0.5, projectId, ...options });

async function queue(url = receiverUrl, data: Record<string, unknown> = { renderId: "r-1" }) {
  await emitWebhookEvent(db, { projectId, type: "render.completed", data, extraUrl: url });
  const [row] = await db
    .select()
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.projectId, projectId))
    .orderBy(sql`${schema.webhookDeliveries.createdAt} desc`)
    .limit(1);
  return row!;
}

const reload = async (id: string) => (await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, id)))[0]!;
const makeDue = (id: string) => db.update(schema.webhookDeliveries).set({ nextAttemptAt: sql`now()` }).where(eq(schema.webhookDeliveries.id, id));

describe("runDueDeliveries", () => {
  it("runDueDeliveries – receiver answers 500, then 204 → retried 5 s later with the same webhook-id, delivered, signature verifies", async () => {
    const delivery = await queue();
    answers = [{ status: 500 }, { status: 204 }];

    expect(await run()).toBe(1);
    const failed = await reload(delivery.id);
    const [firstAttempt] = failed.attemptLog as Extract<AttemptLogEntry, { durationMs: number }>[];
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "The receiver answered HTTP 500." });
    expect(firstAttempt).toMatchObject({ statusCode: 500, error: null, response: "receiver says no" });
    expect(failed.nextAttemptAt.getTime()).toBe(Date.parse(firstAttempt!.at) + firstAttempt!.durationMs + 5_000);
    expect(failed.retryUntil!.getTime()).toBe(Date.parse(firstAttempt!.at) + 24 * 3600 * 1000);

    expect(await run()).toBe(0); // not due yet
    await makeDue(delivery.id);
    expect(await run()).toBe(1);
    const delivered = await reload(delivery.id);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 204, lastError: null });
    expect(delivered.deliveredAt).not.toBeNull();
    expect(delivered.attemptLog).toHaveLength(2);

    expect(received).toHaveLength(2);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([delivery.messageId, delivery.messageId]);
    const { secret } = await getSigningSecret(db, projectId);
    for (const request of received) {
      expect(request.body).toBe(JSON.stringify(delivery.payload));
      expect(request.headers["content-type"]).toBe("application/json");
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ type: "render.completed", data: { renderId: "r-1" } });
      expect(() => new Webhook(secret).verify(request.body.replace("r-1", "r-2"), request.headers as Record<string, string>)).toThrow();
    }
  });

  it("runDueDeliveries – a failure past the 24 h window → failed for good, no further attempt", async () => {
    const delivery = await queue();
    await db.update(schema.webhookDeliveries).set({ retryUntil: sql`now() + interval '1 second'` }).where(eq(schema.webhookDeliveries.id, delivery.id));
    answers = [{ status: 503 }];
    await run();
    const failed = await reload(delivery.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 503 });
    await makeDue(delivery.id);
    expect(await run()).toBe(0);
    expect(received).toHaveLength(1);
  });

  it("runDueDeliveries – a 1 MB answer → delivered, the log keeps its first 200 characters", async () => {
    const delivery = await queue();
    answers = [{ status: 200, body: "x".repeat(1024 * 1024) }];
    await run();
    const row = await reload(delivery.id);
    expect(row.status).toBe("delivered");
    expect((row.attemptLog as { response: string }[])[0]!.response).toBe("x".repeat(200));
  });

  it("runDueDeliveries – a redirect → not followed, counted as a failure", async () => {
    const delivery = await queue();
    answers = [{ status: 302, headers: { location: `${receiverUrl}/elsewhere` } }];
    await run();
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: "The receiver answered HTTP 302." });
    expect(received).toHaveLength(1);
  });

  it.each([
    { name: "a literal loopback address", url: () => receiverUrl, error: /^Refused: 127\.0\.0\.1 is a loopback address: webhooks must reach a public address\.$/ },
    {
      name: "an IPv4-compatible IPv6 loopback ([::127.0.0.1], saved before ::/96 was refused)",
      url: () => receiverUrl.replace("127.0.0.1", "[::127.0.0.1]"),
      error: /^Refused: ::7f00:1 is an IPv4-compatible IPv6 address \(::\/96, deprecated\): webhooks must reach a public address\.$/,
    },
    { name: "a name resolving to loopback (localhost)", url: () => receiverUrl.replace("127.0.0.1", "localhost"), error: /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address: webhooks must reach a public address\.$/ },
    { name: "not a URL at all (a render's webhookUrl stored unchecked)", url: () => "not a url", error: /^Refused: the URL is not an absolute URL\.$/ },
  ])("runDueDeliveries – private addresses not allowed, $name → nothing sent, failed at once with the reason, never retried", async ({ url, error }) => {
    const delivery = await queue(url());
    expect(await run({ allowPrivate: false })).toBe(1);
    const refused = await reload(delivery.id);
    expect(refused).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: null, deliveredAt: null });
    expect(refused.lastError).toMatch(error);
    expect(refused.attemptLog).toEqual([expect.objectContaining({ statusCode: null, error: refused.lastError })]);
    expect(refused.attemptLog).toEqual([expect.not.objectContaining({ refused: expect.anything() })]);
    await makeDue(delivery.id);
    expect(await run({ allowPrivate: false })).toBe(0);
    expect(received).toHaveLength(0);
  });

  it("runDueDeliveries – nobody listening → the connection error logged, retried", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const delivery = await queue(`http://127.0.0.1:${port}/`);
    await run();
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "The connection was refused (ECONNREFUSED)." });
  });

  it("runDueDeliveries – a host that does not resolve (saved with a warning) → the DNS failure logged, retried: it may resolve later", async () => {
    const delivery = await queue("https://offline-receiver.invalid/hook");
    await run({ allowPrivate: false });
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "The host could not be resolved (ENOTFOUND)." });
  });

  it("runDueDeliveries – after a rotation → two signatures, each secret verifies", async () => {
    const before = await getSigningSecret(db, projectId);
    const after = await rotateSigningSecret(db, projectId);
    expect(after.previousSecretExpiresAt).not.toBeNull();
    await queue();
    await run();
    const [request] = received;
    expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [before.secret, after.secret]) expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toBeTruthy();
  });

  it("runDueDeliveries – aborted (shutdown) mid-request → the attempt is not counted, the lease keeps it for a later run", async () => {
    const delivery = await queue();
    answers = ["hang"];
    const abort = new AbortController();
    onRequest = () => abort.abort();
    await run({ signal: abort.signal });
    const row = await reload(delivery.id);
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    receiver.closeAllConnections();
  });
});

describe("claimDueDeliveries", () => {
  it("claimDueDeliveries – two claims at once → disjoint sets covering every due delivery; a third finds them leased", async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 5; index++) ids.add((await queue(receiverUrl, { index })).id);
    const [first, second] = await Promise.all([claimDueDeliveries(db, 3, projectId), claimDueDeliveries(db, 3, projectId)]);
    const claimed = [...first, ...second].map((row) => row.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(new Set(claimed)).toEqual(ids);
    expect(await claimDueDeliveries(db, 10, projectId)).toEqual([]);
  });
});

describe("attemptDelivery", () => {
  it(`attemptDelivery – more than ${maxAttemptLogEntries} attempts → the log keeps the newest ${maxAttemptLogEntries}`, async () => {
    const delivery = await queue();
    const oldEntries = Array.from({ length: maxAttemptLogEntries }, (_, index) => ({ at: new Date(index * 1000).toISOString(), statusCode: 500, error: null, durationMs: 1, response: null }));
    await db.update(schema.webhookDeliveries).set({ attemptLog: oldEntries }).where(eq(schema.webhookDeliveries.id, delivery.id));
    const [claimed] = await claimDueDeliveries(db, 1, projectId);
    await attemptDelivery(db, claimed!, { allowPrivate: true });
    const log = (await reload(delivery.id)).attemptLog as { at: string; statusCode: number }[];
    expect(log).toHaveLength(maxAttemptLogEntries);
    expect(log[0]!.at).toBe(new Date(1000).toISOString());
    expect(log.at(-1)!.statusCode).toBe(204);
  });
});
