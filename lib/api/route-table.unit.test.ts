import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as openApiRoute from "@/app/api/openapi.json/route";
import { routeModules } from "@/app/api/route-modules";
import { apiRouteFiles, renderRouteModules, routeModulesFile, undeclaredRouteFiles } from "@/scripts/route-modules";
import { declaredOperations } from "@/scripts/openapi-document";
import { accessOf } from "./openapi";

// Each route file declares its contract with defineRoute (lib/api/define-route.ts); the OpenAPI
// document and the reliability suite's route × role × tenant matrix are built from those
// declarations. These tests hold the declarations to the route files: every method of every
// route file under app/api and app/analytics has one, at the path the file serves.

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** "/api/Projects/{projectId}/templates" for app/api/Projects/[projectId]/templates/route.ts. */
const urlPathOf = (file: string) => file.replace(/^app/, "").replace(/\/route\.ts$/, "").replace(/\[([^\]]+)\]/g, "{$1}");

/** The methods a route module exports, each with the contract its export carries (undefined when none). */
const exportedMethods = (module: object) =>
  Object.entries(module)
    .filter(([name]) => methods.includes(name))
    .map(([name, route]) => ({ name, contract: (route as { contract?: { path: string } }).contract }));

describe("the route table", () => {
  const declaredFiles = apiRouteFiles().filter((file) => !undeclaredRouteFiles.includes(file));

  it("app/api/route-modules.ts lists every route file that declares a contract (else run `npm run routes:generate`)", () => {
    expect(readFileSync(routeModulesFile, "utf8")).toBe(renderRouteModules());
    expect(routeModules).toHaveLength(declaredFiles.length);
  });

  it("every method of every route file carries its contract, declared at the path the file serves", () => {
    const modules: [string, object][] = [...declaredFiles.map((file, index): [string, object] => [file, routeModules[index]!]), ["app/api/openapi.json/route.ts", openApiRoute]];
    const problems = modules.flatMap(([file, module]) => {
      const exported = exportedMethods(module);
      if (exported.length === 0) return [`${file}: exports no method`];
      return exported.flatMap(({ name, contract }) => {
        if (!contract) return [`${name} ${file}: no contract (defineRoute)`];
        return contract.path === urlPathOf(file) ? [] : [`${name} ${file}: declared at ${contract.path}, served at ${urlPathOf(file)}`];
      });
    });
    expect(problems).toEqual([]);
    expect(declaredOperations().length).toBeGreaterThan(60);
  });

  it("no method and path twice, no operationId twice, each one camelCase", () => {
    const operations = declaredOperations();
    const keys = operations.map((op) => `${op.method} ${op.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    const ids = operations.map((op) => op.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z]+[A-Za-z]*$/.test(id))).toEqual([]);
  });

  it("a GET needs only the read scope (but the upload sessions', which hand out write URLs)", () => {
    const reads = declaredOperations().filter((op) => op.method === "get" && !op.path.includes("/uploads/"));
    expect(reads.filter((op) => accessOf(op).scope !== undefined && accessOf(op).scope !== "read").map((op) => op.path)).toEqual([]);
  });

  it("the routes without a contract are the unknown-path answers, the libraries' protocols and the document's own route", () => {
    expect(undeclaredRouteFiles.filter((file) => !apiRouteFiles().includes(file))).toEqual([]);
  });

  it("app/api/[...path] – answers every method, so no path under /api falls through to the HTML 404 page", async () => {
    const unknownPath = (await import("@/app/api/[...path]/route")) as object;
    expect(Object.keys(unknownPath).filter((name) => methods.includes(name)).sort()).toEqual([...methods].sort());
  });
});
