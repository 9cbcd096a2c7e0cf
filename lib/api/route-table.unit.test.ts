import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { roles } from "@/lib/auth/permissions";
import { operations } from "./openapi";

// The route table (lib/api/openapi.ts) is what the OpenAPI document and the reliability
// suite's route × role × tenant matrix are generated from: it must name every method of every
// route file under app/api and app/analytics (ingest), and nothing else.

/** app/api/[...path] and app/analytics/[...path]: the answer (404) for every path the table does not have. */
const unknownPathRoute = path.join("app", "api", "[...path]", "route.ts");
const unknownIngestPathRoute = path.join("app", "analytics", "[...path]", "route.ts");

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** "GET /api/Projects/{projectId}/templates" for each method the route file exports. */
function declaredOperations(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const exported = [
    ...[...source.matchAll(/^export (?:const|async function|function) (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/gm)].map((m) => m[1]!),
    ...[...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(",").map((name) => name.trim())),
  ];
  const urlPath = `/${path.dirname(file).split(path.sep).join("/")}`.replace(/^\/app/, "").replace(/\[([^\]]+)\]/g, "{$1}");
  return exported.map((method) => `${method} ${urlPath}`);
}

describe("the route table", () => {
  const files = [...routeFiles(path.join("app", "api")), ...routeFiles(path.join("app", "analytics"))].filter(
    (file) => file !== unknownPathRoute && file !== unknownIngestPathRoute,
  );

  it("operations – every method of every route file under app/api and app/analytics, and nothing else", () => {
    const declared = files.flatMap(declaredOperations).sort();
    const listed = operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
    expect(listed).toEqual(declared);
    expect(declared.length).toBeGreaterThan(30);
  });

  it("operations – no method and path twice, no operationId twice", () => {
    const keys = operations.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = operations.map((op) => op.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z]+[A-Za-z]*$/.test(id))).toEqual([]);
  });

  it("operations – each one a role may call names the token scope it needs (the route matrix checks it against the app)", () => {
    const withoutScope = operations.filter((op) => (roles as readonly string[]).includes(op.role) && !op.scope).map((op) => `${op.method} ${op.path}`);
    expect(withoutScope).toEqual([]);
    expect(operations.filter((op) => op.method === "get" && op.scope && op.scope !== "read" && !op.path.includes("/uploads/")).map((op) => op.path)).toEqual([]);
  });

  it("app/api/[...path] – answers every method, so no path under /api falls through to the HTML 404 page", () => {
    expect(declaredOperations(unknownPathRoute).map((operation) => operation.split(" ")[0]).sort()).toEqual(
      ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
    );
  });
});
