import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { signIn } from "./console-helpers";
import { lightsUpload, setUpShare } from "./embed-helpers";
import { cli } from "./owned-project";

// A path whose percent-encoding does not decode (a truncated escape, an overlong UTF-8
// sequence) must never be a 500: API and ingest routes answer 400 problem+json, everything
// else the 404 page. Every route of the app/ folder is tried, so a route added later is too.
// And a console page about something the signed-in user may not see (another tenant's project,
// an unknown template…) is the 404 page with a 404 status, for every console route.

/** Escapes decodeURIComponent rejects: a truncated three-byte sequence, an overlong "/". */
const malformedSegments = ["%E0%A4%A", "%C0%AF"];

/** URL patterns of every page.tsx and route.ts under `root` (app/), as segments ("[slug]" for a dynamic one). */
function routePatterns(root = "app", files = /^(page\.tsx|route\.ts)$/): string[][] {
  const patterns: string[][] = [];
  const visit = (directory: string, segments: string[]) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups "(site)" are not part of the URL; "_private" folders are not routes.
        if (entry.name.startsWith("_")) continue;
        const isGroup = entry.name.startsWith("(") && entry.name.endsWith(")");
        visit(path.join(directory, entry.name), isGroup ? segments : [...segments, entry.name]);
      } else if (files.test(entry.name)) {
        patterns.push(segments);
      }
    }
  };
  visit(root, []);
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

test.describe("console pages for what the signed-in user may not see", () => {
  test.describe.configure({ timeout: 300_000 });

  type Tenant = { projectId: string; organizationId: string; templateId: string; campaignId: string };
  const user = { email: `console-404-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  let own: Tenant;
  let foreign: Tenant;

  /** A project (its organization's own) with a template, a DEV share and a campaign on it. */
  async function tenant(request: APIRequestContext, label: string): Promise<Tenant> {
    const setup = await setUpShare(request, label, lightsUpload);
    const auth = { Authorization: `Bearer ${setup.token}` };
    const me = (await (await request.get("/api/me", { headers: auth })).json()) as { projects: { id: string; organizationId: string }[] };
    const templates = (await (await request.get(`/api/Projects/${setup.projectId}/templates`, { headers: auth })).json()) as { items: { id: string }[] };
    const campaign = await request.post(`/api/Projects/${setup.projectId}/campaigns`, { headers: auth, data: { name: label, channel: "DEV" } });
    expect(campaign.status(), await campaign.text()).toBe(201);
    return {
      projectId: setup.projectId,
      organizationId: me.projects.find((project) => project.id === setup.projectId)!.organizationId,
      templateId: templates.items[0]!.id,
      campaignId: ((await campaign.json()) as { id: string }).id,
    };
  }

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    [own, foreign] = await Promise.all([tenant(request, "Console 404 own"), tenant(request, "Console 404 foreign")]);
    await cli("user", "create", "--email", user.email, "--password", user.password);
    await cli("member", "add", "--user", user.email, "--org", own.organizationId, "--role", "OrganizationAdmin");
  });

  /** Every page of the console route group, as URL segments. */
  const consolePages = routePatterns("app/(site)/(console)", /^page\.tsx$/);

  /** Each dynamic segment's value for the user's own tenant, and values the user may not see. */
  const segmentValues = (segment: string): { own: string; others: string[] } => {
    const ids = (key: keyof Tenant) => ({ own: own[key], others: [foreign[key], randomUUID(), "not-an-id"] });
    switch (segment) {
      case "[projectId]":
        return ids("projectId");
      case "[orgId]":
        return ids("organizationId");
      case "[templateId]":
        return ids("templateId");
      case "[campaignId]":
        return ids("campaignId");
      case "[channel]":
        return { own: "DEV", others: ["QA", "dev"] };
      default:
        throw new Error(`No values for the segment ${segment}: add them to this spec`);
    }
  };

  test("the console's route table – has the pages this test expects, each dynamic segment known", () => {
    const urls = consolePages.map((segments) => `/${segments.join("/")}`);
    expect(urls).toEqual(
      expect.arrayContaining(["/projects", "/projects/[projectId]", "/projects/[projectId]/templates/[templateId]", "/projects/[projectId]/campaigns/[campaignId]", "/projects/[projectId]/shares/[channel]", "/organizations/[orgId]/members"]),
    );
    for (const segments of consolePages) for (const segment of segments.filter((s) => s.startsWith("["))) expect(() => segmentValues(segment)).not.toThrow();
  });

  test("GET of every console page, signed in – its own ids → 200 (or the overview's redirect); another tenant's, an unknown or a malformed id in any segment, or an unknown path below → 404 with the not-found page", async ({ page }) => {
    await signIn(page, user);
    const urlOf = (segments: string[]) => `/${segments.join("/")}`;
    const expected: [string, number][] = [];
    for (const pattern of consolePages) {
      const ownSegments = pattern.map((segment) => (segment.startsWith("[") ? segmentValues(segment).own : segment));
      expected.push([urlOf(ownSegments), ownSegments.length === 2 && ownSegments[0] === "projects" ? 307 : 200]);
      pattern.forEach((segment, index) => {
        if (!segment.startsWith("[")) return;
        for (const other of segmentValues(segment).others) expected.push([urlOf(ownSegments.map((value, i) => (i === index ? other : value))), 404]);
      });
      // Everything of the other tenant at once, and a path no page answers.
      if (pattern.some((segment) => segment.startsWith("["))) {
        expected.push([urlOf(pattern.map((segment) => (segment.startsWith("[") ? (segmentValues(segment).others[0] ?? segment) : segment))), 404]);
      }
      expected.push([`${urlOf(ownSegments)}/no-such-page`, 404]);
    }

    const wrong: string[] = [];
    for (const [url, status] of expected) {
      const response = await page.request.get(url, { maxRedirects: 0, timeout: 60_000 });
      const body = await response.text();
      const problem =
        response.status() !== status
          ? `${response.status()}`
          : status === 404 && !(response.headers()["content-type"] ?? "").startsWith("text/html")
            ? response.headers()["content-type"]
            : status === 404 && !body.includes("Page not found")
              ? "not the not-found page"
              : null;
      if (problem) wrong.push(`GET ${url} → ${problem} (expected ${status})`);
    }
    expect(wrong).toEqual([]);
  });
});
