import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { fixture, lightsUpload, setUpShare } from "./embed-helpers";
import { cli, env } from "./owned-project";

// CSRF on cookie-authenticated API calls: the console's session cookie is SameSite=Lax, and a
// page on another port of the same host is the same *site*, so the browser sends the cookie
// with its form posts. The API must refuse unsafe methods whose origin is not the app's.

type ShareState = { channel: string; status: string; slug: string };

let attacker: Server;
let attackerOrigin: string;
let attackerHtml = "";
let setup: Awaited<ReturnType<typeof setUpShare>>;

/** Signs the demo admin in through /login; the context then holds the session cookie. */
async function signIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(env("E2E_ADMIN_EMAIL"));
  await page.getByLabel("Password").fill(env("E2E_ADMIN_PASSWORD"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects/);
}

async function devShare(request: APIRequestContext): Promise<ShareState> {
  const response = await request.get(`/api/Projects/${setup.projectId}/public-video-shares`, {
    headers: { Authorization: `Bearer ${setup.token}` },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: ShareState[] };
  return items.find((share) => share.channel === "DEV")!;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  setup = await setUpShare(request, "Security API", lightsUpload);
  // The demo admin signs in to the console; it is made a member of this test's own project.
  await cli("member", "add", "--user", env("E2E_ADMIN_EMAIL"), "--project", setup.projectId, "--role", "ProjectManager");
  attacker = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(attackerHtml));
  await new Promise<void>((resolve) => attacker.listen(0, "localhost", resolve));
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  if (!attacker) return;
  attacker.closeAllConnections();
  await new Promise((resolve) => attacker.close(resolve));
});

test("POST …/public-video-shares/DEV/disable – a form auto-submitted from another port of the same host is refused (403); the share stays Enabled", async ({ page, request }) => {
  await signIn(page);
  const target = `${env("E2E_BASE_URL")}/api/Projects/${setup.projectId}/public-video-shares/DEV/disable`;
  attackerHtml = `<!doctype html><form method="POST" action="${target}"><input name="x" value="1"></form><script>document.forms[0].submit()</script>`;
  const answered = page.waitForResponse((response) => response.url() === target);
  await page.goto(`${attackerOrigin}/`);
  const response = await answered;
  // The browser did send the session cookie: without the origin check this disabled the share.
  expect((await response.request().allHeaders())["cookie"]).toMatch(/next-auth\.session-token/);
  expect(response.status()).toBe(403);
  expect(response.headers()["content-type"]).toBe("application/problem+json");
  expect(((await response.json()) as { detail: string }).detail).toMatch(/origin/i);
  expect((await devShare(request)).status).toBe("Enabled");
});

test("POST …/public-video-shares/DEV/disable and /restore – a same-origin JSON fetch from the console page still works", async ({ page, request }) => {
  await signIn(page);
  const base = `/api/Projects/${setup.projectId}/public-video-shares/DEV`;
  const call = (path: string) =>
    page.evaluate(async (url) => {
      const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      return { status: response.status, body: (await response.json()) as { status: string } };
    }, path);
  const disabled = await call(`${base}/disable`);
  expect(disabled).toMatchObject({ status: 200, body: { status: "Disabled" } });
  expect((await devShare(request)).status).toBe("Disabled");
  expect(await call(`${base}/restore`)).toMatchObject({ status: 200, body: { status: "Enabled" } });
  // A body the handler reads after the cookie was read: the session must not take it over.
  const put = await page.evaluate(
    async ({ url, credentialId }) => {
      const body = JSON.stringify({ publicTitle: "Renamed from the console", apiCredentialId: credentialId });
      const response = await fetch(url, { method: "PUT", headers: { "Content-Type": "application/json" }, body });
      return { status: response.status, body: (await response.json()) as { publicTitle: string } };
    },
    { url: base, credentialId: setup.credentialId },
  );
  expect(put).toMatchObject({ status: 200, body: { publicTitle: "Renamed from the console" } });
});

test("POST …/public-video-shares/DEV/disable and /restore – a bearer call without Origin is unaffected", async ({ request }) => {
  const headers = { Authorization: `Bearer ${setup.token}` };
  const base = `/api/Projects/${setup.projectId}/public-video-shares/DEV`;
  const disabled = await request.post(`${base}/disable`, { headers });
  expect(disabled.status(), await disabled.text()).toBe(200);
  const restored = await request.post(`${base}/restore`, { headers });
  expect(restored.status(), await restored.text()).toBe(200);
  expect((await devShare(request)).status).toBe("Enabled");
});

test("unsafe methods with the session cookie – refused unless same-origin, on every route that changes something", async ({ page, request }) => {
  await signIn(page);
  // The context's request API sends the context's cookies: the session, as a browser would.
  const session = page.context().request;
  const projects = `/api/Projects/${setup.projectId}`;
  const templateId = "00000000-0000-4000-8000-000000000000";
  const routes: [method: "POST" | "PUT" | "DELETE", path: string][] = [
    ["POST", `${projects}/public-video-shares/DEV/disable`],
    ["POST", `${projects}/public-video-shares/DEV/restore`],
    ["POST", `${projects}/public-video-shares/DEV/rotate-slug`],
    ["PUT", `${projects}/public-video-shares/DEV`],
    ["POST", `${projects}/templates/${templateId}/deploy`],
    ["POST", `${projects}/templates/${templateId}/archive`],
    ["POST", `${projects}/templates/${templateId}/preview`],
    ["DELETE", `${projects}/templates/${templateId}`],
    ["POST", `${projects}/templates/upload`],
    ["POST", "/api/credentials"],
    ["POST", `/api/credentials/${setup.credentialId}/revoke`],
  ];
  const refusals: [label: string, headers: Record<string, string>][] = [
    ["Origin of another port of the same host", { Origin: attackerOrigin }],
    ["Origin null (a sandboxed or file page)", { Origin: "null" }],
    ["Sec-Fetch-Site: same-site and no Origin", { "Sec-Fetch-Site": "same-site" }],
    ["neither Origin nor Sec-Fetch-Site", {}],
  ];
  for (const [method, path] of routes) {
    for (const [label, headers] of refusals) {
      const response = await session.fetch(path, { method, headers: { ...headers, "Content-Type": "application/json" }, data: "{}" });
      expect(response.status(), `${method} ${path} – ${label}`).toBe(403);
      expect(response.headers()["content-type"], `${method} ${path} – ${label}`).toBe("application/problem+json");
      expect(((await response.json()) as { code: string }).code).toBe("forbidden");
    }
  }
  // A form's body type is refused even from the right origin: JSON routes take JSON only.
  for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
    const response = await session.post(`${projects}/public-video-shares/DEV/rotate-slug`, {
      headers: { Origin: env("E2E_BASE_URL"), "Content-Type": type },
      data: "x=1",
    });
    expect(response.status(), type).toBe(415);
    expect(response.headers()["content-type"]).toBe("application/problem+json");
  }
  expect((await devShare(request)).status).toBe("Enabled");
  expect((await devShare(request)).slug).toBe(setup.share.slug);

  // Sec-Fetch-Site: same-origin is enough without Origin; a multipart upload from the console works.
  const upload = await session.post(`${projects}/templates/upload`, {
    headers: { "Sec-Fetch-Site": "same-origin" },
    multipart: { ...lightsUpload, name: "Lights again", templateJson: { name: "lights.json", mimeType: "application/json", buffer: fixture("lottie/lights.json") } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
});

test("GET /embed/{slug} and GET /embed – the player document routes answer as before behind withPublic", async ({ request }) => {
  const player = await request.get(`/embed/${setup.share.slug}`);
  expect(player.status()).toBe(200);
  expect(player.headers()["content-type"]).toMatch(/^text\/html/);
  const nameless = await request.get("/embed");
  expect(nameless.status()).toBe(400);
  expect(nameless.headers()["content-type"]).toMatch(/^text\/html/);
});
