import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";

// A method a route does not take is answered 405 with Allow, the methods it does take (RFC 9110
// §15.5.6): scripts/serve.mjs derives them from the route's exported handlers, listed by the
// build (scripts/route-methods.mjs), with HEAD and OPTIONS as Next answers them. Next decides a
// 405 before any handler runs, so no data and no credentials are needed: the ids are fresh ones.

/** A route's path with its parameters ("{projectId}") filled with fresh ids. */
const filled = (route: string) => route.replace(/\{[^}]+\}/g, () => randomUUID());

type Case = { name: string; method: string; route: string; allow: string[]; problem: boolean; ownOptions?: true };

const project = "/api/Projects/{projectId}";

const cases: Case[] = [
  { name: "a collection route", method: "DELETE", route: `${project}/webhooks`, allow: ["GET", "HEAD", "OPTIONS", "POST"], problem: true },
  { name: "an item route", method: "PUT", route: `${project}/webhooks/{endpointId}`, allow: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"], problem: true },
  { name: "a dynamic nested route", method: "GET", route: `${project}/public-video-shares/DEV/disable`, allow: ["OPTIONS", "POST"], problem: true },
  { name: "a PUT-only route", method: "PATCH", route: `${project}/public-video-shares/STAGING`, allow: ["OPTIONS", "PUT"], problem: true },
  // Static names beside a dynamic sibling: the route Next picks is the static one.
  { name: "a static route beside [templateId]", method: "GET", route: `${project}/templates/upload`, allow: ["OPTIONS", "POST"], problem: true },
  { name: "a static route beside [endpointId]", method: "DELETE", route: `${project}/webhooks/deliveries`, allow: ["GET", "HEAD", "OPTIONS"], problem: true },
  { name: "the health check", method: "POST", route: "/api/health", allow: ["GET", "HEAD", "OPTIONS"], problem: true },
  { name: "an ingest route with its own OPTIONS (CORS preflight)", method: "GET", route: "/analytics/v1/events", allow: ["OPTIONS", "POST"], problem: true, ownOptions: true },
  // Next serves a prerendered route itself, with Allow of its own: GET and HEAD, not even OPTIONS.
  { name: "a prerendered route", method: "POST", route: "/analytics/v1/event-schema-v1.json", allow: ["GET", "HEAD"], problem: true },
  { name: "a route outside the API (the player document)", method: "POST", route: "/embed/{slug}", allow: ["GET", "HEAD", "OPTIONS"], problem: false },
];

for (const { name, method, route, allow, problem, ownOptions } of cases) {
  test(`${method} ${route} (${name}) – 405${problem ? " problem+json" : ""}, Allow: ${allow.join(", ")}`, async ({ request }) => {
    const url = filled(route);
    const response = await request.fetch(url, { method, maxRedirects: 0 });
    expect(response.status()).toBe(405);
    expect(response.headers()["allow"]).toBe(allow.join(", "));
    if (problem) {
      expect(response.headers()["content-type"]).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 405, code: "method_not_allowed" });
    }

    // HEAD and OPTIONS as the server answers them: where Allow names them, not with 405 (Next's
    // own OPTIONS answer lists the same methods; a route's own OPTIONS answers for itself).
    for (const other of ["HEAD", "OPTIONS"]) {
      const answer = await request.fetch(url, { method: other, maxRedirects: 0 });
      if (!allow.includes(other)) expect([other, answer.status(), answer.headers()["allow"]]).toEqual([other, 405, allow.join(", ")]);
      else if (other === "OPTIONS" && !ownOptions) expect([other, answer.status(), answer.headers()["allow"]]).toEqual([other, 204, allow.join(", ")]);
      else expect([other, answer.status()]).not.toEqual([other, 405]);
    }
  });
}
