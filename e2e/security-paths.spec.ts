import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";

// A path whose percent-encoding does not decode (a truncated escape, an overlong UTF-8
// sequence) must never be a 500: API and ingest routes answer 400 problem+json, everything
// else the 404 page. Every route of the app/ folder is tried, so a route added later is too.

/** Escapes decodeURIComponent rejects: a truncated three-byte sequence, an overlong "/". */
const malformedSegments = ["%E0%A4%A", "%C0%AF"];

/** URL patterns of every page.tsx and route.ts under app/, as segments ("[slug]" for a dynamic one). */
function routePatterns(): string[][] {
  const patterns: string[][] = [];
  const visit = (directory: string, segments: string[]) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups "(site)" are not part of the URL; "_private" folders are not routes.
        if (entry.name.startsWith("_")) continue;
        const isGroup = entry.name.startsWith("(") && entry.name.endsWith(")");
        visit(path.join(directory, entry.name), isGroup ? segments : [...segments, entry.name]);
      } else if (/^(page\.tsx|route\.ts)$/.test(entry.name)) {
        patterns.push(segments);
      }
    }
  };
  visit("app", []);
  return patterns;
}

/** The same route with one segment malformed: each dynamic one, and the last static one. */
function malformedVariants(segments: string[], bad: string): string[] {
  const variants: string[] = [];
  const withSegment = (index: number, value: string) => `/${segments.map((s, i) => (i === index ? value : s)).join("/")}`;
  segments.forEach((segment, index) => {
    if (segment.startsWith("[")) variants.push(withSegment(index, bad));
  });
  const lastStatic = segments.findLastIndex((segment) => !segment.startsWith("["));
  variants.push(lastStatic >= 0 ? withSegment(lastStatic, bad) : `/${bad}`);
  // Dynamic segments stand for real values elsewhere in the path: any valid one will do.
  return variants.map((variant) => variant.replace(/\[[^\]]+\]/g, "x"));
}

const isProblemPath = (pathname: string) => /^\/(api|analytics)\//.test(pathname);

type Answer = { status: number; contentType: string; body: string };

async function send(request: APIRequestContext, method: "GET" | "POST", url: string): Promise<Answer> {
  const response = await request.fetch(url, { method, maxRedirects: 0, timeout: 30_000, ...(method === "POST" ? { data: {} } : {}) });
  return { status: response.status(), contentType: response.headers()["content-type"] ?? "", body: await response.text() };
}

/** What is wrong with the answer to a malformed path, or null when it is right. */
function wrongAnswer(url: string, answer: Answer): string | null {
  if (isProblemPath(url)) {
    if (answer.status !== 400 || !answer.contentType.startsWith("application/problem+json")) return `${answer.status} ${answer.contentType}`;
    const problem = JSON.parse(answer.body) as Record<string, unknown>;
    if (problem.type !== "urn:reelbind:problem:bad_request" || problem.code !== "bad_request" || problem.status !== 400) return answer.body;
    return null;
  }
  if (answer.status !== 404 || !answer.contentType.startsWith("text/html") || !answer.body.includes("Page not found")) {
    return `${answer.status} ${answer.contentType}`;
  }
  return null;
}

test.describe("malformed percent-encoding in the path", () => {
  // The paths the issue reported, as it reported them.
  const reported = ["/api/embed/posters/%E0%A4%A", "/v/%E0%A4%A", "/embed/%E0%A4%A", "/api/Projects/%C0%AF/templates", "/api/previews/%E0%A4%A.png"];
  for (const url of reported) {
    for (const method of ["GET", "POST"] as const) {
      test(`${method} ${url} – ${isProblemPath(url) ? "400 problem+json" : "the 404 page"}`, async ({ request }) => {
        const answer = await send(request, method, url);
        expect(wrongAnswer(url, answer), `${method} ${url} → ${answer.status} ${answer.body.slice(0, 200)}`).toBeNull();
      });
    }
  }

  const patterns = routePatterns();

  test("the route table – app/ has the routes this spec expects to walk", () => {
    const urls = patterns.map((segments) => `/${segments.join("/")}`);
    expect(urls).toEqual(expect.arrayContaining(["/", "/login", "/projects", "/v/[slug]", "/embed/[slug]", "/analytics/v1/events", "/api/auth/[...nextauth]"]));
  });

  for (const segments of patterns) {
    const route = `/${segments.join("/")}`;
    test(`GET and POST ${route} – a malformed segment is never a 500`, async ({ request }) => {
      const wrong: string[] = [];
      for (const bad of malformedSegments) {
        for (const url of malformedVariants(segments, bad)) {
          for (const method of ["GET", "POST"] as const) {
            const answer = await send(request, method, url);
            const problem = wrongAnswer(url, answer);
            if (problem) wrong.push(`${method} ${url} → ${problem}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  test("GET /api/Projects/:projectId/templates – a well-formed escape still reaches the route", async ({ request }) => {
    // "%41" is "A": decodable, so the route runs and answers for itself (no token: 401).
    const response = await request.get("/api/Projects/%41/templates");
    expect(response.status()).toBe(401);
    expect(response.headers()["content-type"]).toContain("application/problem+json");
  });
});
