import { randomUUID } from "node:crypto";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { getDb, schema } from "@/lib/db";
import { mintEmbedSessionToken } from "@/lib/tokens/embed-session-token";
import { mintIngestToken } from "@/lib/tokens/ingest-token";
import { forgeToken, strangerSecret, unsignedToken } from "@/testing/tokens";
import { OPTIONS as consentPreflight, POST as postConsent } from "@/app/analytics/v1/consent/route";
import { OPTIONS as eventsPreflight, POST as postEvents } from "@/app/analytics/v1/events/route";
import {
  addTemplate,
  batchRequest,
  byteStream,
  configuredSecret,
  consentUrl,
  eventBatch,
  expectAccepted,
  expectProblem,
  ingestTokenFor,
  manyEvents,
  newTenant,
  quarantineCounts,
  servedTemplate,
  storedCount,
  storedEvents,
  tenantWithTemplate,
  wireEvent,
  type BatchRequestOptions,
  type Tenant,
} from "@/testing/ingest";
import { templateRefusals } from "./project-templates";
import { drainQuarantine } from "./quarantine";
import { ingestRateLimit } from "./rate-limit";
import { eventBatchLimits } from "./validate-events";

const { analyticsQuarantineSamples } = schema;

// POST /analytics/v1/events and /analytics/v1/consent through the Next route handlers
// (docs/design.md, Ingest): the order of the checks, enrichment, idempotent storage, the rate limit.

const send = (options: BatchRequestOptions) => postEvents(batchRequest(options));

/** A tenant, its token and a valid batch of `n` events. */
async function setUp(n = 3, tokenExtra: { allowedOrigins?: string[]; shareId?: string } = {}) {
  const tenant = newTenant();
  const token = await ingestTokenFor(tenant, tokenExtra);
  return { tenant, token, body: eventBatch(manyEvents(tenant, n)) };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function ingestClaims(tenant: Tenant, lifetimeSeconds = 3600) {
  const iat = nowSeconds();
  return {
    organization_id: tenant.organizationId,
    project_id: tenant.projectId,
    template_id: servedTemplate.id,
    template_version: servedTemplate.version,
    aud: "reelbind-ingest",
    iat,
    exp: iat + lifetimeSeconds,
  };
}

describe("POST /analytics/v1/events – bearer ingest token (401)", () => {
  const kid = () => configuredSecret().kid;
  it.each<[string, (tenant: Tenant) => Promise<Record<string, string>>]>([
    ["no Authorization header", async () => ({})],
    ["a Basic Authorization header", async () => ({ authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` })],
    ["the token without the Bearer scheme", async (t) => ({ authorization: await ingestTokenFor(t) })],
    ["Bearer with no token", async () => ({ authorization: "Bearer " })],
    [
      "a token signed with another secret under the same kid",
      async (t) => ({ authorization: `Bearer ${(await mintIngestToken(t, { secrets: [{ kid: kid(), secret: strangerSecret.secret }] })).token}` }),
    ],
    [
      "an expired token",
      async (t) => ({
        authorization: `Bearer ${(await mintIngestToken({ ...t, ttlSeconds: 15 * 60 }, { now: new Date(Date.now() - 3600_000) })).token}`,
      }),
    ],
    [
      "an embed-session token (typ embed+jwt)",
      async (t) => ({ authorization: `Bearer ${(await mintEmbedSessionToken({ ...t, credentialId: randomUUID(), channel: "PROD" })).token}` }),
    ],
    [
      "an unsigned token (alg: none)",
      async (t) => ({ authorization: `Bearer ${unsignedToken({ typ: "ingest+jwt", kid: kid() }, ingestClaims(t))}` }),
    ],
    [
      "an HS512-signed token with the right secret",
      async (t) => ({
        authorization: `Bearer ${await forgeToken({ alg: "HS512", typ: "ingest+jwt", kid: kid() }, ingestClaims(t), configuredSecret())}`,
      }),
    ],
    [
      "a token living 49 hours (exp - iat above 48 h)",
      async (t) => ({
        authorization: `Bearer ${await forgeToken({ alg: "HS256", typ: "ingest+jwt", kid: kid() }, ingestClaims(t, 49 * 3600), configuredSecret())}`,
      }),
    ],
  ])("%s → 401 problem+json, nothing stored", async (_name, headersFor) => {
    const tenant = newTenant();
    const response = await send({ headers: await headersFor(tenant), body: eventBatch(manyEvents(tenant, 2)) });
    const problem = await expectProblem(response, 401);
    expect(problem.code).toBe("unauthorized");
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("control – a hand-built HS256 token living exactly 48 hours → 202 (the forged cases fail for their one flaw)", async () => {
    const tenant = newTenant();
    const token = await forgeToken({ alg: "HS256", typ: "ingest+jwt", kid: configuredSecret().kid }, ingestClaims(tenant, 48 * 3600), configuredSecret());
    await expectAccepted(await send({ token, body: eventBatch(manyEvents(tenant, 2)) }), 2);
    expect(await storedCount(tenant.projectId)).toBe(2);
  });
});

describe("POST /analytics/v1/events – Origin against the token's allowed_origins (403)", () => {
  it.each<[string, string | undefined, 202 | 403]>([
    ["the allowed origin", "https://allowed.com", 202],
    ["the allowed host in another case", "https://ALLOWED.com", 202],
    ["no Origin header", undefined, 403],
    ["an opaque origin (null)", "null", 403],
    ["a longer host", "https://allowed.com.evil.com", 403],
    ["a subdomain", "https://www.allowed.com", 403],
    ["another port", "https://allowed.com:8443", 403],
    ["another scheme", "http://allowed.com", 403],
    ["another site", "https://evil.com", 403],
  ])("%s (%s) → %i", async (_name, origin, status) => {
    const { tenant, token, body } = await setUp(2, { allowedOrigins: ["https://allowed.com"] });
    const response = await send({ token, origin, body });
    if (status === 202) {
      await expectAccepted(response, 2);
      expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    } else {
      expect((await expectProblem(response, 403)).code).toBe("forbidden");
    }
    expect(response.headers.get("vary")).toMatch(/\bOrigin\b/);
    expect(await storedCount(tenant.projectId)).toBe(status === 202 ? 2 : 0);
  });

  it.each<[string, string | undefined]>([
    ["any origin", "https://anything.example"],
    ["no Origin header", undefined],
    ["an opaque origin", "null"],
  ])("a token without allowed_origins accepts %s → 202", async (_name, origin) => {
    const { tenant, token, body } = await setUp(2);
    const response = await send({ token, origin, body });
    await expectAccepted(response, 2);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin ?? null);
    expect(await storedCount(tenant.projectId)).toBe(2);
  });

  it("error answers carry Access-Control-Allow-Origin too, so the SDK can read and classify the status", async () => {
    const { token, body } = await setUp(1, { allowedOrigins: ["https://allowed.com"] });
    const unauthorized = await send({ origin: "https://allowed.com", body });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe("https://allowed.com");
    expect(unauthorized.headers.get("vary")).toMatch(/\bOrigin\b/);
    const invalid = await send({ token, origin: "https://allowed.com", body: eventBatch([]) });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("access-control-allow-origin")).toBe("https://allowed.com");
  });

  it.each([
    ["/events", eventsPreflight],
    ["/consent", consentPreflight],
  ])("OPTIONS %s – preflight → 204 with Allow-Methods, Allow-Headers and the Origin echoed", async (_path, preflight) => {
    const response = await preflight(
      new Request(`http://localhost:3000/analytics/v1${_path}`, {
        method: "OPTIONS",
        headers: { origin: "https://allowed.com", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://allowed.com");
    expect(response.headers.get("vary")).toMatch(/\bOrigin\b/);
    expect(response.headers.get("access-control-allow-methods")).toMatch(/\bPOST\b/);
    const allowedHeaders = response.headers.get("access-control-allow-headers")?.toLowerCase() ?? "";
    expect(allowedHeaders).toMatch(/\bauthorization\b/);
    expect(allowedHeaders).toMatch(/\bcontent-type\b/);
  });
});

const kb = 1024;

/** A valid batch serialized and padded with trailing spaces to exactly `bytes` bytes. */
function paddedBatchText(tenant: Tenant, bytes: number): string {
  const text = JSON.stringify(eventBatch(manyEvents(tenant, 2)));
  return text + " ".repeat(bytes - Buffer.byteLength(text));
}

describe("POST /analytics/v1/events – size (413), content type (415), JSON (400)", () => {
  it("Content-Length of 600 KB → 413 problem+json, nothing stored", async () => {
    const { tenant, token } = await setUp();
    const rawBody = paddedBatchText(tenant, 600 * kb);
    const response = await send({ token, rawBody, headers: { "content-length": String(600 * kb) } });
    expect((await expectProblem(response, 413)).code).toBe("payload_too_large");
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("Content-Length of 600 KB → 413 before the body is read (an endless body is not consumed)", async () => {
    const { token } = await setUp();
    const { stream, pulled } = byteStream(Infinity);
    const response = await send({ token, stream, headers: { "content-length": String(600 * kb) } });
    await expectProblem(response, 413);
    expect(pulled()).toBeLessThan(512 * kb);
  });

  it("a streamed body of 513 KB without Content-Length → 413, nothing stored", async () => {
    const { tenant, token } = await setUp();
    const text = new TextEncoder().encode(paddedBatchText(tenant, 513 * kb));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < text.byteLength; offset += 64 * kb) controller.enqueue(text.subarray(offset, offset + 64 * kb));
        controller.close();
      },
    });
    const request = batchRequest({ token, stream });
    expect(request.headers.get("content-length")).toBeNull();
    const response = await postEvents(request);
    await expectProblem(response, 413);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("an endless streamed body → 413 after reading little more than 512 KB", async () => {
    const { token } = await setUp();
    const { stream, pulled } = byteStream(Infinity);
    await expectProblem(await send({ token, stream }), 413);
    expect(pulled()).toBeLessThanOrEqual(512 * kb + 3 * 64 * kb);
  });

  it.each([
    ["with Content-Length", true],
    ["streamed", false],
  ])("a body of exactly 512 KB (%s) → 202; one byte more → 413", async (_name, withLength) => {
    const { tenant, token } = await setUp();
    const request = (bytes: number) => {
      const rawBody = paddedBatchText(tenant, bytes);
      if (withLength) return send({ token, rawBody, headers: { "content-length": String(bytes) } });
      const { stream } = streamOf(rawBody);
      return send({ token, stream });
    };
    await expectProblem(await request(512 * kb + 1), 413);
    expect(await storedCount(tenant.projectId)).toBe(0);
    await expectAccepted(await request(512 * kb), 2);
  });

  it("501 events → 413, nothing stored; 500 events → 202", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const events = manyEvents(tenant, eventBatchLimits.maxEvents + 1);
    const tooMany = await send({ token, body: eventBatch(events) });
    expect((await expectProblem(tooMany, 413)).detail).toMatch(/500 events/);
    expect(await storedCount(tenant.projectId)).toBe(0);
    await expectAccepted(await send({ token, body: eventBatch(events.slice(0, 500)) }), 500);
    expect(await storedCount(tenant.projectId)).toBe(500);
  });

  it.each<[string, string | null]>([
    ["text/plain", "text/plain"],
    ["text/plain;charset=UTF-8", "text/plain;charset=UTF-8"],
    ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded"],
    ["no Content-Type", null],
  ])("%s → 415, nothing stored", async (_name, contentType) => {
    const { tenant, token, body } = await setUp();
    const problem = await expectProblem(await send({ token, body, contentType }), 415);
    expect(problem.code).toBe("unsupported_media_type");
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("application/json; charset=utf-8 → 202", async () => {
    const { token, body } = await setUp();
    await expectAccepted(await send({ token, body, contentType: "application/json; charset=utf-8" }), 3);
  });

  it.each([
    ["a truncated document", '{"sent_at": "2026-11-21T10:00:01.000Z", "events": ['],
    ["an empty body", ""],
    ["single quotes", "{'events': []}"],
    ["a trailing comma", '{"events": [],}'],
  ])("malformed JSON (%s) → 400 problem+json", async (_name, rawBody) => {
    const { token } = await setUp();
    expect((await expectProblem(await send({ token, rawBody }), 400)).code).toBe("bad_request");
  });

  it.each<[string, number, (ctx: { token: string; tenant: Tenant }) => Promise<BatchRequestOptions>]>([
    [
      "a forged token with a foreign Origin, a 600 KB Content-Length and text/plain → 401",
      401,
      async ({ tenant }) => ({
        token: (await mintIngestToken(tenant, { secrets: [{ kid: configuredSecret().kid, secret: strangerSecret.secret }] })).token,
        origin: "https://evil.com",
        rawBody: "x",
        contentType: "text/plain",
        headers: { "content-length": String(600 * kb) },
      }),
    ],
    [
      "a foreign Origin with a 600 KB Content-Length and text/plain → 403",
      403,
      async ({ token }) => ({ token, origin: "https://evil.com", rawBody: "x", contentType: "text/plain", headers: { "content-length": String(600 * kb) } }),
    ],
    [
      "a 600 KB Content-Length with text/plain → 413",
      413,
      async ({ token }) => ({ token, origin: "https://allowed.com", rawBody: "x", contentType: "text/plain", headers: { "content-length": String(600 * kb) } }),
    ],
    ["text/plain with malformed JSON → 415", 415, async ({ token }) => ({ token, origin: "https://allowed.com", rawBody: "{", contentType: "text/plain" })],
    [
      "501 invalid events → 413, the count is checked before the schema",
      413,
      async ({ token }) => ({ token, origin: "https://allowed.com", body: { events: Array.from({ length: 501 }, () => ({ bogus: true })) } }),
    ],
  ])("order of checks – %s", async (_name, status, build) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant, { allowedOrigins: ["https://allowed.com"] });
    await expectProblem(await send(await build({ token, tenant })), status);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });
});

/** Bytes of `text` as a stream in 64 KB chunks, without Content-Length. */
function streamOf(text: string) {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 64 * kb));
      offset += 64 * kb;
    },
  });
  return { stream };
}

type Json = Record<string, unknown>;
const set = (field: string, value: unknown) => (event: Json) => void (event[field] = value);
const drop = (field: string) => (event: Json) => void delete event[field];

describe("POST /analytics/v1/events – schema (422, whole batch, nothing stored)", () => {
  it.each<[string, string, (event: Json) => void]>([
    ["an unknown event_type", "events.1.event_type", set("event_type", "video.rewound")],
    ["a missing occurred_at", "events.1.occurred_at", drop("occurred_at")],
    ["occurred_at without milliseconds", "events.1.occurred_at", set("occurred_at", "2026-11-21T10:00:00Z")],
    ["occurred_at on a day that does not exist", "events.1.occurred_at", set("occurred_at", "2026-02-30T10:00:00.000Z")],
    ["playback_id 0", "events.1.playback_id", set("playback_id", 0)],
    ["playback_id 1.5", "events.1.playback_id", set("playback_id", 1.5)],
    ["an event_id that is not a UUID", "events.1.event_id", set("event_id", "not-a-uuid")],
    ["an organization_id that is not a UUID (validated before it is overwritten)", "events.1.organization_id", set("organization_id", "org-1")],
    ["a missing project_id", "events.1.project_id", drop("project_id")],
    ["template_version 1", "events.1.template_version", set("template_version", "1")],
    ["an unknown field", "events.1.extra", set("extra", 1)],
    ["viewer_hash in uppercase", "events.1.viewer_hash", set("viewer_hash", "A".repeat(64))],
    ["referrer_host with a scheme", "events.1.referrer_host", set("referrer_host", "https://example.com/")],
    ["consent.status yes", "events.1.consent.status", set("consent", { status: "yes" })],
    ["video.progressed at 30 percent", "events.1.payload.percent", set("payload", { position_ms: 1000, percent: 30 })],
    ["video.played with an empty payload", "events.1.payload.position_ms", set("payload", {})],
    ["a payload field of another event type", "events.1.payload.cta_id", set("payload", { position_ms: 1, cta_id: "x" })],
    ["a negative position_ms", "events.1.payload.position_ms", set("payload", { position_ms: -1 })],
  ])("%s in the second of three events → 422 naming %s", async (_name, path, change) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const events = [wireEvent(tenant, "video.played"), wireEvent(tenant, "video.played"), wireEvent(tenant, "video.paused")] as unknown as Json[];
    change(events[1]!);
    const problem = await expectProblem(await send({ token, body: eventBatch(events) }), 422);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    for (const error of problem.errors ?? []) expect(error.path).toMatch(/^events\.1\./);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it.each<[string, string, (tenant: Tenant) => unknown]>([
    ["no sent_at", "sent_at", (t) => ({ events: manyEvents(t, 2) })],
    ["an empty events array", "events", () => eventBatch([])],
    ["events as an object", "events", (t) => ({ sent_at: "2026-11-21T10:00:01.000Z", events: { 0: wireEvent(t) } })],
    ["an unknown batch field", "extra", (t) => ({ ...eventBatch(manyEvents(t, 2)), extra: true })],
    ["a JSON array body", "", (t) => manyEvents(t, 2)],
    ["a JSON null body", "", () => null],
  ])("a batch with %s → 422 naming %j", async (_name, path, build) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const problem = await expectProblem(await send({ token, body: build(tenant) }), 422);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("errors of several events name each event's index", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const events = manyEvents(tenant, 5) as unknown as Json[];
    set("playback_id", 0)(events[0]!);
    set("event_type", "nope")(events[3]!);
    const problem = await expectProblem(await send({ token, body: eventBatch(events) }), 422);
    expect(problem.errors?.map((e) => e.path)).toEqual(expect.arrayContaining(["events.0.playback_id", "events.3.event_type"]));
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it.each([
    ["in a payload", (event: string) => event.replace('"payload":{', '"payload":{"__proto__":{"polluted":true},'), "events.0.payload.__proto__"],
    ["as an event field", (event: string) => event.replace("{", '{"__proto__":{"polluted":true},'), "events.0.__proto__"],
    ["as constructor in consent", (event: string) => event.replace('"consent":{', '"consent":{"constructor":{"prototype":{}},'), "events.0.consent.constructor"],
  ])("a __proto__-style key %s (raw JSON text) → 422, nothing stored, no prototype polluted", async (_name, inject, path) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const rawEvent = inject(JSON.stringify(wireEvent(tenant, "video.played")));
    const rawBody = `{"sent_at":"2026-11-21T10:00:01.000Z","events":[${rawEvent},${JSON.stringify(wireEvent(tenant))}]}`;
    const problem = await expectProblem(await send({ token, rawBody }), 422);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  // JSON.parse accepts a lone UTF-16 surrogate (\ud800); PostgreSQL's jsonb refuses it (22P02).
  // The schema must catch it, naming the field, before the batch reaches the shared writer.
  it.each<[string, string, Record<string, unknown>, string]>([
    ["autoplay.failed reason", "autoplay.failed", { reason: "LONE" }, "events.0.payload.reason"],
    ["cta.clicked cta_name", "cta.clicked", { cta_id: "book", cta_name: "LONE", position_ms: 1 }, "events.0.payload.cta_name"],
    ["video.errored message", "video.errored", { error_code: "E", message: "LONE" }, "events.0.payload.message"],
  ])("a lone UTF-16 surrogate in %s (raw JSON text) → 422 naming the field, nothing stored", async (_name, eventType, payload, path) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const event = wireEvent(tenant, eventType as "autoplay.failed", { payload });
    const rawBody = JSON.stringify(eventBatch([event, wireEvent(tenant)])).replace('"LONE"', '"before \\ud800 after"');
    expect(rawBody).toContain("\\ud800");
    const problem = await expectProblem(await send({ token, rawBody }), 422);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it.each([
    ["objects", '{"a":', "}"],
    ["arrays", "[", "]"],
  ])("a payload nesting %s 10,000 levels deep → 422, not a crash", async (_name, open, close) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const deep = `${open.repeat(10_000)}1${close.repeat(10_000)}`;
    const event = JSON.stringify(wireEvent(tenant, "video.played")).replace('"payload":{"position_ms":0}', `"payload":{"position_ms":0,"deep":${deep}}`);
    expect(event).toContain('"deep":');
    const response = await send({ token, rawBody: `{"sent_at":"2026-11-21T10:00:01.000Z","events":[${event}]}` });
    const problem = await expectProblem(response, 422);
    expect(problem.errors?.some((e) => e.path.startsWith("events.0.payload") && /deeper/.test(e.message))).toBe(true);
    expect(await storedCount(tenant.projectId)).toBe(0);
    // The quarantine keeps a sample of it, its deep part cut (JSON.stringify would overflow the stack).
    await drainQuarantine();
    const db = await getDb();
    const samples = await db.select().from(analyticsQuarantineSamples).where(eq(analyticsQuarantineSamples.projectId, tenant.projectId));
    expect(samples.map((row) => row.event.includes('"[nested too deep]"'))).toEqual([true]);
  });
});

const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const safariOnIphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

describe("POST /analytics/v1/events – enrichment", () => {
  it("events claiming another organization_id and project_id are stored under the token's", async () => {
    const tenant = newTenant();
    const impostor = newTenant();
    const token = await ingestTokenFor(tenant);
    await expectAccepted(await send({ token, body: eventBatch(manyEvents(impostor, 4)) }), 4);
    expect(await storedCount(impostor.projectId)).toBe(0);
    const rows = await storedEvents(tenant.projectId);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect({ organizationId: row.organizationId, projectId: row.projectId }).toEqual(tenant);
  });

  it("client fields are stored as sent; received_at is the ingest clock; share_id and channel come from the token", async () => {
    const tenant = newTenant();
    const shareId = randomUUID();
    const token = await ingestTokenFor(tenant, { shareId, channel: "STAGING" });
    const sent = [
      wireEvent(tenant, "cta.clicked", {
        playback_id: 3,
        viewer_hash: "0123456789abcdef".repeat(4),
        referrer_host: "news.example.org",
        occurred_at: "2026-11-21T09:59:58.001Z",
        consent: { status: "not_required" },
      }),
      wireEvent(tenant, "session.started"),
    ];
    const before = Date.now();
    await expectAccepted(await send({ token, body: eventBatch(sent) }), 2);
    const after = Date.now();
    const rows = await storedEvents(tenant.projectId);
    for (const event of sent) {
      const row = rows.find((r) => r.eventId === event.event_id)!;
      expect(row).toBeDefined();
      expect({
        event_type: row.eventType,
        template_id: row.templateId,
        template_version: row.templateVersion,
        session_id: row.sessionId,
        playback_id: row.playbackId,
        viewer_hash: row.viewerHash ?? undefined,
        referrer_host: row.referrerHost ?? undefined,
        occurred_at: row.occurredAt.toISOString(),
        consent: row.consent,
        payload: row.payload,
      }).toEqual({
        event_type: event.event_type,
        template_id: event.template_id,
        template_version: event.template_version,
        session_id: event.session_id,
        playback_id: event.playback_id,
        viewer_hash: event.viewer_hash,
        referrer_host: event.referrer_host,
        occurred_at: event.occurred_at,
        consent: event.consent,
        payload: event.payload,
      });
      expect(row.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(row.receivedAt.getTime()).toBeLessThanOrEqual(after + 1);
      expect(row.shareId).toBe(shareId);
      expect(row.channel).toBe("STAGING");
    }
  });

  it.each<[string, string | undefined, Record<string, unknown>]>([
    ["Chrome on Windows", chromeOnWindows, { type: "desktop", os: "Windows", browser: "Chrome" }],
    ["Safari on an iPhone", safariOnIphone, { type: "mobile", os: "iOS", browser: "Mobile Safari" }],
    ["a crawler", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", { type: "bot" }],
    ["no User-Agent", undefined, { type: "other", os: null, browser: null }],
  ])("device from the User-Agent – %s", async (_name, userAgent, device) => {
    const { tenant, token, body } = await setUp(2);
    await expectAccepted(await send({ token, body, headers: userAgent ? { "user-agent": userAgent } : {} }), 2);
    for (const row of await storedEvents(tenant.projectId)) expect(row.device).toMatchObject(device);
  });

  it.each<[string, string | undefined, Record<string, unknown> | null]>([
    ["PT", "PT", { country: "PT" }],
    ["pt (lowercase)", "pt", { country: "PT" }],
    ["XK (Kosovo, as CDNs report it)", "XK", { country: "XK" }],
    ["XX (unknown, not a country)", "XX", null],
    ["EU (a region)", "EU", null],
    ["PRT (alpha-3)", "PRT", null],
    ["a script", "<script>", null],
    ["no header", undefined, null],
  ])("geo from the viewer-country header – %s", async (_name, value, geo) => {
    const { tenant, token, body } = await setUp(2);
    const geoHeader = getConfig().geoHeader;
    expect(geoHeader).toBe("CloudFront-Viewer-Country");
    await expectAccepted(await send({ token, body, headers: value === undefined ? {} : { [geoHeader]: value } }), 2);
    for (const row of await storedEvents(tenant.projectId)) expect(row.geo).toEqual(geo);
  });
});

describe("POST /analytics/v1/events – which template an event counts for", () => {
  /** A token naming no template, as the manifest minted them before they carried one. */
  const templatelessToken = (tenant: Tenant) => ingestTokenFor(tenant, { template: null });
  const about = (template: { id: string; version: string }) => ({ template_id: template.id, template_version: template.version });
  const storedTemplates = async (projectId: string) => (await storedEvents(projectId)).map((row) => [row.templateId, row.templateVersion]);

  it("a token naming a template: every event counts for it, whatever the events claim", async () => {
    const tenant = newTenant();
    const served = { id: randomUUID(), version: "4.2" };
    const token = await ingestTokenFor(tenant, { template: served });
    const events = [wireEvent(tenant), wireEvent(tenant, "video.paused", about({ id: randomUUID(), version: "9.9" })), wireEvent(tenant, "cta.clicked", { template_version: "4.3" })];
    await expectAccepted(await send({ token, body: eventBatch(events) }), 3);
    expect(await storedTemplates(tenant.projectId)).toEqual(events.map(() => [served.id, "4.2"]));
  });

  it("a token naming none: events of a template of the project are stored as they claim it", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const events = [wireEvent(tenant, "video.played", about(template)), wireEvent(tenant, "video.paused", about(template))];
    await expectAccepted(await send({ token: await templatelessToken(tenant), body: eventBatch(events) }), 2);
    expect(await storedTemplates(tenant.projectId)).toEqual([
      [template.id, template.version],
      [template.id, template.version],
    ]);
  });

  it.each([
    ["a template_id the project does not have", () => ({ id: randomUUID(), version: "1.0" }), templateRefusals.unknownId],
    ["another project's template", async () => (await tenantWithTemplate()).template, templateRefusals.unknownId],
    ["a template_id of the project with another version", null, templateRefusals.unknownVersion],
  ])("a token naming none: %s → 202, the event quarantined under its reason, not stored", async (_name, claimed, reason) => {
    const { tenant, template } = await tenantWithTemplate();
    const event = wireEvent(tenant, "video.played", about(claimed ? await claimed() : { id: template.id, version: "1.1" }));
    await expectAccepted(await send({ token: await templatelessToken(tenant), body: eventBatch([event]) }), 0, 0, 1);
    expect(await storedCount(tenant.projectId)).toBe(0);
    await drainQuarantine();
    expect(await quarantineCounts(tenant.projectId)).toEqual({ [reason]: 1 });
  });

  it("a token naming none, a mixed batch: the events of the project's templates stored, the others counted per reason", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const good = [wireEvent(tenant, "session.started", about(template)), wireEvent(tenant, "video.played", about(template)), wireEvent(tenant, "video.paused", about(template))];
    const unknownIds = [wireEvent(tenant, "video.played", about({ id: randomUUID(), version: "1.0" })), wireEvent(tenant, "video.played", about({ id: randomUUID(), version: "1.0" }))];
    const otherVersion = wireEvent(tenant, "video.played", about({ id: template.id, version: "2.0" }));
    const body = eventBatch([unknownIds[0], good[0], otherVersion, good[1], unknownIds[1], good[2]]);
    await expectAccepted(await send({ token: await templatelessToken(tenant), body }), 3, 0, 3);
    expect((await storedEvents(tenant.projectId)).map((row) => row.eventId).sort()).toEqual(good.map((event) => event.event_id).sort());
    // A retry: the stored events are duplicates, the others are counted again (they were answered, and sent again).
    await expectAccepted(await send({ token: await templatelessToken(tenant), body }), 0, 3, 3);
    await drainQuarantine();
    expect(await quarantineCounts(tenant.projectId)).toEqual({ [templateRefusals.unknownId]: 4, [templateRefusals.unknownVersion]: 2 });
  });

  it("a token naming none: a template uploaded after the project's templates were cached counts at once", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const token = await templatelessToken(tenant);
    await expectAccepted(await send({ token, body: eventBatch([wireEvent(tenant, "video.played", about(template))]) }), 1);
    const uploaded = await addTemplate(tenant.projectId, "1.1");
    await expectAccepted(await send({ token, body: eventBatch([wireEvent(tenant, "video.played", about(uploaded))]) }), 1);
    expect(await storedTemplates(tenant.projectId)).toEqual(expect.arrayContaining([[uploaded.id, "1.1"]]));
  });

  it("a token naming none: past the quarantine's 100 records at once, batches are still answered, unrecorded; the recorded ones count every refused event", async () => {
    // The limiters' clock stands still: no refill however long the batches take.
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { tenant, template } = await tenantWithTemplate();
    const token = await templatelessToken(tenant);
    for (let batch = 0; batch < 101; batch++) {
      const events = [wireEvent(tenant, "video.played", about(template)), ...Array.from({ length: 2 }, () => wireEvent(tenant, "video.played", about({ id: randomUUID(), version: "1.0" })))];
      await expectAccepted(await send({ token, body: eventBatch(events) }), 1, 0, 2);
    }
    await drainQuarantine();
    expect(await quarantineCounts(tenant.projectId)).toEqual({ [templateRefusals.unknownId]: 200 });
    expect(await storedCount(tenant.projectId)).toBe(101);
  });
});

describe("POST /analytics/v1/events – idempotency and concurrency", () => {
  it("the same batch sent twice → {accepted: n} then {accepted: 0, duplicates: n}; stored once", async () => {
    const { tenant, token, body } = await setUp(5);
    await expectAccepted(await send({ token, body }), 5, 0);
    await expectAccepted(await send({ token, body }), 0, 5);
    expect(await storedCount(tenant.projectId)).toBe(5);
  });

  it("a retried batch with one new event → accepted 1, duplicates n", async () => {
    const { tenant, token, body } = await setUp(3);
    await expectAccepted(await send({ token, body }), 3);
    await expectAccepted(await send({ token, body: eventBatch([...body.events, wireEvent(tenant)]) }), 1, 3);
    expect(await storedCount(tenant.projectId)).toBe(4);
  });

  it("an event_id repeated inside one batch → accepted 1, duplicates 1", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const event = wireEvent(tenant);
    await expectAccepted(await send({ token, body: eventBatch([event, { ...event, event_type: "video.paused", payload: { position_ms: 5 } }]) }), 1, 1);
    expect(await storedCount(tenant.projectId)).toBe(1);
  });

  it("the same event_id under two projects is stored for each", async () => {
    const first = await setUp(2);
    const second = newTenant();
    await expectAccepted(await send({ token: first.token, body: first.body }), 2);
    await expectAccepted(await send({ token: await ingestTokenFor(second), body: first.body }), 2);
    expect(await storedCount(second.projectId)).toBe(2);
  });

  it("the same batch sent twice at once → accepted n in total, duplicates n in total", async () => {
    const { tenant, token, body } = await setUp(10);
    const answers = await Promise.all([send({ token, body }), send({ token, body })]);
    const results = await Promise.all(answers.map(async (r) => ({ status: r.status, ...((await r.json()) as { accepted: number; duplicates: number }) })));
    expect(results.map((r) => r.status)).toEqual([202, 202]);
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(10);
    expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(10);
    expect(await storedCount(tenant.projectId)).toBe(10);
  });

  it("a batch the database cannot store does not fail other projects' batches committed with it", async () => {
    const mallory = newTenant();
    const rawBody = JSON.stringify(eventBatch([wireEvent(mallory, "autoplay.failed", { payload: { reason: "LONE" } })])).replace('"LONE"', '"\\udc00"');
    const attack = { token: await ingestTokenFor(mallory), rawBody };
    const innocents = await Promise.all(Array.from({ length: 10 }, () => setUp(3)));
    const requests = innocents.map(({ token, body }) => ({ token, body }) as BatchRequestOptions);
    requests.splice(5, 0, attack);
    const answers = await Promise.all(requests.map((options) => send(options)));
    const attackAnswer = answers.splice(5, 1)[0]!;
    expect(attackAnswer.status).toBeGreaterThanOrEqual(400);
    expect(attackAnswer.status).toBeLessThan(500);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    for (const { tenant } of innocents) expect(await storedCount(tenant.projectId)).toBe(3);
    expect(await storedCount(mallory.projectId)).toBe(0);
  });

  it("30 concurrent batches of 20 → all 202, 600 accepted, 600 rows", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const answers = await Promise.all(Array.from({ length: 30 }, () => send({ token, body: eventBatch(manyEvents(tenant, 20)) })));
    const results = await Promise.all(answers.map(async (r) => ({ status: r.status, body: (await r.json()) as { accepted: number; duplicates: number } })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.body.accepted, 0)).toBe(600);
    expect(results.reduce((sum, r) => sum + r.body.duplicates, 0)).toBe(0);
    expect(await storedCount(tenant.projectId)).toBe(600);
  });
});

describe("POST /analytics/v1/events – rate limit per token (429)", () => {
  it("more events than the burst at once → 429 with Retry-After ≥ 1 for the excess, not stored; other tokens unaffected", async () => {
    // The defaults (burst 10,000 events, 2,000/s) are reachable: 30 full batches = 15,000 events
    // at once. The limiters' clock (performance.now()) stands still during the test, so no refill
    // comes in however long the machine takes to serve them: exactly the burst is accepted.
    expect(ingestRateLimit.burst).toBeLessThanOrEqual(10_000);
    expect(ingestRateLimit.burst % eventBatchLimits.maxEvents).toBe(0);
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const batches = Array.from({ length: 30 }, () => eventBatch(manyEvents(tenant, eventBatchLimits.maxEvents)));
    const answers = await Promise.all(batches.map((body) => send({ token, body })));
    let accepted = 0;
    const limited: Response[] = [];
    for (const answer of answers) {
      if (answer.status === 202) accepted += ((await answer.json()) as { accepted: number }).accepted;
      else limited.push(answer);
    }
    expect(limited.length).toBeGreaterThan(0);
    for (const answer of limited) {
      expect((await expectProblem(answer, 429)).code).toBe("too_many_requests");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect(accepted).toBe(ingestRateLimit.burst);
    expect(await storedCount(tenant.projectId)).toBe(accepted);

    // Still inside the first token's exhausted bucket: another project's token is served…
    const other = await setUp(500);
    await expectAccepted(await send({ token: other.token, body: other.body }), 500);
    // …and so is a second token of the same project: the buckets are per token (docs/adr/0034-ingest-endpoints.md).
    const secondToken = await ingestTokenFor(tenant, { shareId: randomUUID() });
    expect(secondToken).not.toBe(token);
    await expectAccepted(await send({ token: secondToken, body: eventBatch(manyEvents(tenant, 500)) }), 500);
  });
});

const consentEvent = (tenant: Tenant, eventType: "consent.accepted" | "consent.declined" = "consent.accepted") =>
  wireEvent(tenant, eventType);

type BeaconOptions = { token?: string; event?: unknown; rawBody?: string; origin?: string; contentType?: string | null };

const beacon = ({ token, event, rawBody, origin, contentType = "text/plain;charset=UTF-8" }: BeaconOptions) =>
  postConsent(batchRequest({ rawBody: rawBody ?? JSON.stringify({ token, event }), origin, contentType }, consentUrl));

describe("POST /analytics/v1/consent – the sendBeacon", () => {
  it.each(["consent.accepted", "consent.declined"] as const)("text/plain {token, event} with %s → 202, stored under the token's project", async (eventType) => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const event = wireEvent(newTenant(), eventType);
    const response = await beacon({ token, event, origin: "https://host.example" });
    await expectAccepted(response, 1);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://host.example");
    const rows = await storedEvents(tenant.projectId);
    expect(rows.map((r) => ({ eventId: r.eventId, eventType: r.eventType, payload: r.payload, organizationId: r.organizationId }))).toEqual([
      { eventId: event.event_id, eventType, payload: event.payload, organizationId: tenant.organizationId },
    ]);
  });

  it("the same beacon twice → accepted 0, duplicates 1 the second time", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant);
    const event = consentEvent(tenant);
    await expectAccepted(await beacon({ token, event }), 1);
    await expectAccepted(await beacon({ token, event }), 0, 1);
  });

  it("a token naming a template: the beacon's event counts for it; a token naming none: an unknown template → 202, quarantined, not stored", async () => {
    const tenant = newTenant();
    const served = { id: randomUUID(), version: "3.1" };
    await expectAccepted(await beacon({ token: await ingestTokenFor(tenant, { template: served }), event: consentEvent(tenant) }), 1);
    expect((await storedEvents(tenant.projectId)).map((row) => [row.templateId, row.templateVersion])).toEqual([[served.id, "3.1"]]);

    const { tenant: own } = await tenantWithTemplate();
    const templateless = await ingestTokenFor(own, { template: null });
    await expectAccepted(await beacon({ token: templateless, event: consentEvent(own) }), 0, 0, 1);
    expect(await storedCount(own.projectId)).toBe(0);
    await drainQuarantine();
    expect(await quarantineCounts(own.projectId)).toEqual({ [templateRefusals.unknownId]: 1 });
  });

  it("application/json is accepted too → 202", async () => {
    const tenant = newTenant();
    await expectAccepted(await beacon({ token: await ingestTokenFor(tenant), event: consentEvent(tenant), contentType: "application/json" }), 1);
  });

  type BeaconCase = { name: string; status: number; path?: string; build: (tenant: Tenant) => BeaconOptions | Promise<BeaconOptions> };
  const restricted = (t: Tenant) => ingestTokenFor(t, { allowedOrigins: ["https://allowed.com"] });
  it.each<BeaconCase>([
    { name: "a non-consent event type", status: 422, path: "event.event_type", build: async (t) => ({ token: await ingestTokenFor(t), event: wireEvent(t, "video.played") }) },
    {
      name: "an invalid consent source",
      status: 422,
      path: "event.payload.source",
      build: async (t) => ({ token: await ingestTokenFor(t), event: { ...consentEvent(t), payload: { source: "cookie-wall" } } }),
    },
    { name: "no event", status: 422, path: "event", build: async (t) => ({ token: await ingestTokenFor(t) }) },
    { name: "no token", status: 401, build: (t) => ({ event: consentEvent(t) }) },
    { name: "a token that is a number", status: 401, build: (t) => ({ rawBody: JSON.stringify({ token: 42, event: consentEvent(t) }) }) },
    {
      name: "a token signed with another secret",
      status: 401,
      build: async (t) => ({ token: (await mintIngestToken(t, { secrets: [{ kid: configuredSecret().kid, secret: strangerSecret.secret }] })).token, event: consentEvent(t) }),
    },
    { name: "an Origin outside the token's allowed_origins", status: 403, build: async (t) => ({ token: await restricted(t), event: consentEvent(t), origin: "https://evil.com" }) },
    { name: "no Origin with a token restricted to allowed_origins", status: 403, build: async (t) => ({ token: await restricted(t), event: consentEvent(t) }) },
    { name: "application/xml", status: 415, build: async (t) => ({ token: await ingestTokenFor(t), event: consentEvent(t), contentType: "application/xml" }) },
    { name: "no Content-Type", status: 415, build: async (t) => ({ token: await ingestTokenFor(t), event: consentEvent(t), contentType: null }) },
    { name: "malformed JSON", status: 400, build: () => ({ rawBody: '{"token": ' }) },
    {
      name: "a body over 16 KB",
      status: 413,
      build: async (t) => ({ rawBody: JSON.stringify({ token: await ingestTokenFor(t), event: consentEvent(t), pad: "x".repeat(17 * kb) }) }),
    },
  ])("$name → $status, nothing stored", async ({ build, status, path }) => {
    const tenant = newTenant();
    const problem = await expectProblem(await beacon(await build(tenant)), status);
    if (path !== undefined) expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await storedCount(tenant.projectId)).toBe(0);
  });

  it("an allowed Origin in another case → 202", async () => {
    const tenant = newTenant();
    const token = await ingestTokenFor(tenant, { allowedOrigins: ["https://allowed.com"] });
    await expectAccepted(await beacon({ token, event: consentEvent(tenant), origin: "https://Allowed.COM" }), 1);
  });
});
