import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/scripts/openapi-document";
import { checkContract as checkAgainst, type ContractRecord, type OpenApiDocument } from "./contract-check";

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
});
