import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/scripts/openapi-document";
import { checkContract as checkAgainst, checkWebhookDeliveries, type ContractRecord, type OpenApiDocument } from "./contract-check";

// The contract check against the real document (built from the route files' contracts): each kind of mismatch it
// exists to catch, and the answers it must let through.

const uuid = "0b7d1c1e-4a52-4c3e-9d6f-2f1f6b7e8a90";
const document = openApiDocument("http://localhost") as unknown as OpenApiDocument;
const checkContract = (records: ContractRecord[]) => checkAgainst(records, document);
const problem = (status: number) => ({ type: "urn:reelbind:problem:x", title: "X", status, detail: "x", code: "x" });
const record = (overrides: Partial<ContractRecord>): ContractRecord => ({
  method: "GET",
  path: "/api/health",
  status: 200,
  headers: { "content-type": "application/json" },
  bodyBytes: 100,
  body: { status: "ok", database: "pglite", analyticsRollups: null },
  ...overrides,
});
const problemRecord = (overrides: Partial<ContractRecord>) =>
  record({ headers: { "content-type": "application/problem+json" }, body: problem(overrides.status ?? 400), ...overrides });

describe("checkContract", () => {
  it("passes answers the document declares: JSON, problem+json with its headers, a CSV, a file by media range", () => {
    const report = checkContract([
      record({}),
      problemRecord({ path: `/api/Projects/${uuid}/templates`, status: 401, headers: { "content-type": "application/problem+json", "www-authenticate": 'Bearer realm="reelbind"' } }),
      record({ path: `/api/Projects/${uuid}/campaigns/${uuid}/export`, headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": "attachment" }, body: undefined }),
      record({ path: `/api/embed/files/${uuid}/a.png`, headers: { "content-type": "image/png", etag: '"x"' }, body: undefined }),
      record({ method: "DELETE", path: `/api/Projects/${uuid}/templates/${uuid}`, status: 204, headers: {}, bodyBytes: 0, body: undefined }),
    ]);
    expect(report.mismatches).toEqual([]);
    expect(report.checked).toBe(5);
  });

  it.each<[string, Partial<ContractRecord>, RegExp]>([
    ["an undeclared status", { status: 418 }, /status 418 is not declared/],
    ["a 500 (never declared)", { ...problemRecord({ status: 500 }) }, /status 500 is not declared/],
    ["a body its schema refuses", { body: { status: "ok", database: "sqlite", analyticsRollups: null } }, /does not match its schema: \/database/],
    ["an undeclared media type", { headers: { "content-type": "text/html" }, body: undefined }, /media type "text\/html" is not declared/],
    ["a body where the document declares none", { method: "DELETE", path: `/api/Projects/${uuid}/templates/${uuid}`, status: 204 }, /body is sent, the document declares none/],
    ["a required header missing", { ...problemRecord({ path: `/api/Projects/${uuid}/templates`, status: 401 }) }, /required header WWW-Authenticate is missing/],
    ["a JSON type whose body is not JSON", { body: undefined, unparsableBody: "<html>" }, /is not JSON/],
    ["a method the path does not declare", { method: "PATCH", status: 200 }, /declares no PATCH/],
  ])("reports %s", (_, overrides, message) => {
    const report = checkContract([record(overrides)]);
    expect(report.mismatches).toEqual([expect.stringMatching(message)]);
  });

  it("skips what is not an operation: internal routes, 404 for paths no route has, 405 and OPTIONS answered with Allow", () => {
    const report = checkContract([
      record({ method: "POST", path: "/api/internal/cli" }),
      problemRecord({ path: "/api/no-such-thing", status: 404 }),
      problemRecord({ method: "PATCH", path: "/api/health", status: 405, headers: { "content-type": "application/problem+json", allow: "GET, HEAD" } }),
      record({ method: "OPTIONS", status: 204, headers: { allow: "GET, HEAD, OPTIONS" }, bodyBytes: 0, body: undefined }),
    ]);
    expect(report).toEqual({
      checked: 0,
      mismatches: [],
      skipped: { "internal route": 1, "404 for a path no route has": 1, "405 for a method the route does not take": 1, "204 to OPTIONS with Allow": 1 },
    });
  });

  it("skips Next's 308 for a doubled or trailing slash, even on a path that does not percent-decode; a 308 elsewhere is a mismatch", () => {
    const redirect = (path: string) => record({ path, status: 308, headers: { location: "/x" }, bodyBytes: 0, body: undefined });
    const report = checkContract([redirect("/api/Projects/%C0%AF/templates//deploy"), redirect("/api/Projects/x/templates/"), redirect("/api/health")]);
    expect(report.skipped).toEqual({ "308 from Next to the path without its trailing or doubled slash": 2 });
    expect(report.mismatches).toEqual(["GET /api/health → 308: status 308 is not declared for GET /api/health"]);
  });
});

describe("checkWebhookDeliveries", () => {
  const signed = { "webhook-id": "msg_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,x" };
  const testEvent = { type: "webhook.test", timestamp: "2026-11-29T07:00:00.000Z", data: { projectId: uuid, endpointId: uuid, message: "hello" } };

  it("passes a delivery the document's webhooks declare, with its Standard Webhooks headers", () => {
    expect(checkWebhookDeliveries([{ headers: signed, body: JSON.stringify(testEvent) }], document)).toEqual([]);
  });

  it("reports an undeclared event type, a missing header, a payload off its schema and a body that is not JSON", () => {
    const { "webhook-signature": _signature, ...unsigned } = signed;
    const mismatches = checkWebhookDeliveries(
      [
        { headers: signed, body: JSON.stringify({ ...testEvent, type: "render.started" }) },
        { headers: unsigned, body: JSON.stringify(testEvent) },
        { headers: signed, body: JSON.stringify({ ...testEvent, data: { ...testEvent.data, endpointId: "not a uuid" } }) },
        { headers: signed, body: "{" },
      ],
      document,
    );
    expect(mismatches).toHaveLength(4);
    expect(mismatches[0]).toBe('delivery 0: the event type "render.started" is not among the document\'s webhooks');
    expect(mismatches[1]).toBe("webhook.test delivery 1: header webhook-signature is missing");
    expect(mismatches[2]).toMatch(/^webhook\.test delivery 2: the body does not match its schema: .*\/data\/endpointId must match format "uuid"/);
    expect(mismatches[3]).toBe("delivery 3: the body is not JSON");
  });
});
