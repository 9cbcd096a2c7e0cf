import { directives } from "../e2e/csp";
import { env } from "../e2e/owned-project";
import { ownAddress, signInOverHttp } from "../e2e/sign-in-helpers";
import { ctaClick, type Manifest } from "../e2e/wire-events";
import { expect, test } from "./tls-instance";

// Issue 15, security checks: the response headers of every kind of response the app serves,
// as a matrix (kind × header). The suite's app runs on http://; a second instance with an
// https:// PUBLIC_BASE_URL (the app behind a TLS-terminating proxy, ./tls-instance.ts) must add
// HSTS to all of them.

type Kind = "console page" | "landing page" | "player iframe" | "demo page" | "API" | "ingest" | "file" | "static";
type Row = { kind: Kind; name: string; status: number; headers: Headers; frameAncestors?: string[] };
type Target = { base: string; token: string; projectId: string; sessionCookie?: string };

/** Where a customer site may frame the player from, in the embed session of the matrix. */
const customerOrigin = "https://customer.example";
/** HSTS for a year at least: browsers then refuse plain http to the host for that long. */
const minHstsSeconds = 365 * 24 * 3600;

const timeout = () => AbortSignal.timeout(60_000);

/** The path and query of a URL the app made with PUBLIC_BASE_URL, on the base the test reaches it at. */
const onBase = (base: string, url: string) => new URL(`${new URL(url).pathname}${new URL(url).search}`, base).toString();

/** The slug of the project's PROD share now (another spec may have rotated the one the start banner printed). */
async function prodShareSlug({ base, token, projectId }: Target): Promise<string> {
  const response = await fetch(`${base}/api/Projects/${projectId}/public-video-shares`, { headers: { Authorization: `Bearer ${token}` }, signal: timeout() });
  const { items } = (await response.json()) as { items: { channel: string; slug: string; status: string }[] };
  const share = items.find((item) => item.channel === "PROD" && item.status === "Enabled");
  expect(share, "the project has an enabled PROD share").toBeDefined();
  return share!.slug;
}

/** One request of every kind the app answers, and its answer's status and headers. */
async function collectRows(target: Target): Promise<Row[]> {
  const { base, token, projectId } = target;
  const slug = await prodShareSlug(target);
  // Lookups of unknown slugs are limited per client address: this test's requests have their own.
  const address = ownAddress();
  const rows: Row[] = [];
  const add = async (kind: Kind, name: string, url: string, init: RequestInit = {}, extra: Partial<Row> = {}) => {
    const response = await fetch(new URL(url, base), { redirect: "manual", ...init, headers: { "X-Forwarded-For": address, ...init.headers }, signal: timeout() });
    await response.arrayBuffer();
    rows.push({ kind, name, status: response.status, headers: response.headers, ...extra });
    return response;
  };
  const bearer = { Authorization: `Bearer ${token}` };
  const json = { "Content-Type": "application/json" };

  await add("console page", "GET /login", "/login");
  await add("console page", "GET /no-such-page (404)", "/no-such-page");
  if (target.sessionCookie) {
    await add("console page", "GET /projects (signed in)", "/projects", { headers: { cookie: target.sessionCookie } });
    await add("console page", "GET /projects/:id/templates (signed in)", `/projects/${projectId}/templates`, { headers: { cookie: target.sessionCookie } });
  }
  await add("landing page", "GET /v/:slug", `/v/${slug}`);
  await add("landing page", "GET /v/:unknown (404)", "/v/UnknownSlug0000000000");

  const credential = await fetch(`${base}/api/credentials`, { method: "POST", headers: { ...bearer, ...json }, body: JSON.stringify({ projectId, name: "Header matrix" }), signal: timeout() });
  expect(credential.status).toBe(201);
  const { apiKey, apiSecret } = (await credential.json()) as { apiKey: string; apiSecret: string };
  const basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;
  const minted = await fetch(`${base}/api/embed-sessions`, {
    method: "POST",
    headers: { Authorization: basic, ...json },
    body: JSON.stringify({ channel: "PROD", allowedOrigins: [customerOrigin] }),
    signal: timeout(),
  });
  expect(minted.status).toBe(201);
  const { token: session } = (await minted.json()) as { token: string };
  await add("player iframe", "GET /embed/:slug", `/embed/${slug}`, {}, { frameAncestors: ["*"] });
  await add("player iframe", "GET /embed?session= (allowed origins)", `/embed?session=${encodeURIComponent(session)}`, {}, { frameAncestors: ["'self'", customerOrigin] });
  await add("player iframe", "GET /embed/:unknown (404 notice)", "/embed/UnknownSlug0000000000", {}, { frameAncestors: ["*"] });
  await add("demo page", "GET /demo/embed?share=", `/demo/embed?share=${slug}`);

  await add("API", "GET /api/health", "/api/health");
  await add("API", "GET /api/me", "/api/me", { headers: bearer });
  await add("API", "GET /api/me without a token (401)", "/api/me");
  await add("API", "GET /api/openapi.json", "/api/openapi.json");
  await add("API", "GET /api/auth/csrf", "/api/auth/csrf");
  await add("API", "GET /api/no-such-route (404)", "/api/no-such-route");
  const manifestResponse = await fetch(`${base}/api/embed/manifest?share=${slug}`, { headers: { "X-Forwarded-For": address }, signal: timeout() });
  rows.push({ kind: "API", name: "GET /api/embed/manifest?share=", status: manifestResponse.status, headers: manifestResponse.headers });
  const manifest = (await manifestResponse.json()) as Manifest & { template: { id: string; files: { templateJson: string | null } } };
  await add("API", "POST /api/embed-sessions (201)", "/api/embed-sessions", { method: "POST", headers: { Authorization: basic, ...json }, body: JSON.stringify({ channel: "PROD" }) });

  await add("ingest", "POST /analytics/v1/events without a token (401)", "/analytics/v1/events", { method: "POST", headers: json, body: "{}" });
  await add("ingest", "POST /analytics/v1/events (202)", "/analytics/v1/events", {
    method: "POST",
    headers: { ...json, Authorization: `Bearer ${manifest.ingest.token}` },
    body: JSON.stringify({ sent_at: new Date().toISOString(), events: [ctaClick(manifest)] }),
  });
  await add("ingest", "OPTIONS /analytics/v1/events (preflight)", "/analytics/v1/events", { method: "OPTIONS", headers: { Origin: customerOrigin, "Access-Control-Request-Method": "POST" } });
  await add("ingest", "POST /analytics/v1/consent (401)", "/analytics/v1/consent", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
  await add("ingest", "GET /analytics/v1/event-schema-v1.json", "/analytics/v1/event-schema-v1.json");

  await add("file", "GET /api/embed/files/:id/:name (template file)", onBase(base, manifest.template.files.templateJson!));
  await add("file", "GET /api/embed/posters/:slug", `/api/embed/posters/${slug}`);
  const preview = await fetch(`${base}/api/Projects/${projectId}/templates/${manifest.template.id}/preview`, {
    method: "POST",
    headers: { ...bearer, ...json },
    body: JSON.stringify({ data: {} }),
    signal: timeout(),
  });
  expect(preview.status, await preview.clone().text()).toBe(200);
  await add("file", "GET /api/previews/:name.png (signed preview)", onBase(base, ((await preview.json()) as { url: string }).url));
  await add("file", "GET /api/embed/files/:id/:name with a bad signature (404)", onBase(base, manifest.template.files.templateJson!).replace(/signature=[^&]+/, "signature=x"));

  const login = await (await fetch(`${base}/login`, { signal: timeout() })).text();
  const chunk = /\/_next\/static\/[^"]+\.js/.exec(login)?.[0];
  expect(chunk, "the login page loads a script of /_next/static").toBeDefined();
  await add("static", "GET /_next/static/…js", chunk!);
  await add("static", "GET /sdk/player-embed.global.js", "/sdk/player-embed.global.js");
  await add("static", "GET /player/player.js", "/player/player.js");
  await add("static", "GET /favicon.ico", "/favicon.ico");
  await add("static", "GET /manifest.webmanifest", "/manifest.webmanifest");
  return rows;
}

const documentKinds = new Set<Kind>(["console page", "landing page", "player iframe", "demo page"]);
const dataKinds = new Set<Kind>(["API", "ingest", "file"]);

/** What is wrong with a row's headers; empty when nothing is. */
function problems(row: Row, https: boolean): string[] {
  const found: string[] = [];
  const header = (name: string) => row.headers.get(name);
  if (header("x-content-type-options") !== "nosniff") found.push(`X-Content-Type-Options: ${header("x-content-type-options")}`);

  const referrer = header("referrer-policy");
  const expectedReferrer = dataKinds.has(row.kind) ? "no-referrer" : "strict-origin-when-cross-origin";
  if (referrer !== expectedReferrer) found.push(`Referrer-Policy: ${referrer} (expected ${expectedReferrer})`);

  const csp = header("content-security-policy");
  const policy = directives(csp ?? "");
  if (documentKinds.has(row.kind)) {
    const expected = row.frameAncestors ?? ["'none'"];
    if (JSON.stringify(policy.get("frame-ancestors")) !== JSON.stringify(expected)) found.push(`frame-ancestors: ${policy.get("frame-ancestors")?.join(" ")} (expected ${expected.join(" ")})`);
    if (!policy.get("script-src")) found.push("no script-src");
    if (JSON.stringify(policy.get("object-src")) !== JSON.stringify(["'none'"])) found.push(`object-src: ${policy.get("object-src")?.join(" ")}`);
  }
  if (dataKinds.has(row.kind)) {
    // Opened as a document (a JSON error, an SVG someone uploaded…), nothing in it may run or be framed.
    if (JSON.stringify(policy.get("default-src")) !== JSON.stringify(["'none'"]) || !policy.has("sandbox") || JSON.stringify(policy.get("frame-ancestors")) !== JSON.stringify(["'none'"])) {
      found.push(`CSP: ${csp} (expected default-src 'none', frame-ancestors 'none', sandbox)`);
    }
  }

  const hsts = header("strict-transport-security");
  if (https) {
    const maxAge = Number(/^max-age=(\d+)/.exec(hsts ?? "")?.[1] ?? 0);
    if (maxAge < minHstsSeconds) found.push(`Strict-Transport-Security: ${hsts} (expected max-age ≥ ${minHstsSeconds})`);
  } else if (hsts !== null) {
    found.push(`Strict-Transport-Security over plain http: ${hsts}`);
  }
  return found;
}

/** The matrix's figures: rows per kind, and the header checks that held. */
function summary(label: string, rows: Row[], https: boolean): string {
  const kinds = [...new Set(rows.map((row) => row.kind))].map((kind) => `${kind} ${rows.filter((row) => row.kind === kind).length}`);
  const failing = rows.filter((row) => problems(row, https).length > 0).length;
  return `security headers (${label}): ${rows.length} responses (${kinds.join(", ")}); ${rows.length - failing} with every expected header, ${failing} not`;
}

function expectHeaders(rows: Row[], https: boolean) {
  const wrong = rows.flatMap((row) => problems(row, https).map((problem) => `${row.kind} – ${row.name} (${row.status}): ${problem}`));
  expect(wrong).toEqual([]);
}

test("every kind of response carries nosniff, a Referrer-Policy and its CSP with frame-ancestors; no HSTS over http", async () => {
  test.setTimeout(300_000);
  const base = env("E2E_BASE_URL");
  const signedIn = await signInOverHttp({ email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD"), address: ownAddress() });
  expect(signedIn.sessionCookie).not.toBeNull();
  const rows = await collectRows({
    base,
    token: env("E2E_API_TOKEN"),
    projectId: env("E2E_PROJECT_ID"),
    sessionCookie: signedIn.sessionCookie!,
  });
  console.log(summary("http", rows, false));
  expectHeaders(rows, false);
});

test("PUBLIC_BASE_URL=https://… (behind a TLS proxy): every kind of response carries Strict-Transport-Security for a year, and the other headers as over http", async ({ tlsInstance }) => {
  test.setTimeout(300_000);
  const { app } = tlsInstance;
  const rows = await collectRows({ base: app.baseUrl, token: app.token, projectId: app.projectId });
  console.log(summary("https", rows, true));
  expectHeaders(rows, true);
});
