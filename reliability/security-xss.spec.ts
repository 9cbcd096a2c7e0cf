import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type APIResponse, type Browser, type Page } from "@playwright/test";
import { makeLottie, textLayer } from "../testing/fixtures/lottie-builders";
import { signIn } from "../e2e/console-helpers";
import { cli } from "../e2e/sign-in-helpers";

// Issue 15, security checks: script payloads in every field a user or a customer's server can
// fill, rendered in Chromium on every page that shows them: the console's lists and detail
// pages, the audit log, the landing page with its player iframe, the player of an embed session,
// the demo customer page. A payload that runs calls window.__xss(tag) (page.exposeFunction, in
// every frame) or opens a dialog; CSP violations are counted apart: a violation means markup got
// into a page and only the CSP stopped it.

/** Payload shapes, each calling __xss with a tag that names the field and the payload. */
const payloads: ((tag: number) => string)[] = [
  (tag) => `<script>__xss(${tag})</script>`,
  (tag) => `<img src=x onerror=__xss(${tag})>`,
  (tag) => `"><svg onload=__xss(${tag})>`,
  (tag) => `'-__xss(${tag})-'`,
  (tag) => `</script><script>__xss(${tag})</script>`,
  (tag) => `javascript:__xss(${tag})//`,
  (tag) => `{{constructor.constructor('__xss(${tag})')()}}`,
  (tag) => `<iframe srcdoc="<script>parent.__xss(${tag})</script>">`,
  (tag) => `<img src=x onerror=alert(${tag})>`,
  (tag) => `\${__xss(${tag})}`,
  (tag) => `<details open ontoggle=__xss(${tag})>`,
  (tag) => `<style onload=__xss(${tag})></style>`,
];

/** The fields, in the order their index appears in a tag (tag = field × 100 + payload). */
const fields = [
  "organization name",
  "project name",
  "template name",
  "Lottie text layer name (a field's target)",
  "manifest field default",
  "manifest chapter name",
  "manifest CTA name",
  "share publicTitle",
  "share publicSubtitle",
  "share ctaLabel",
  "share personalizationData value",
  "share personalizationData key",
  "API credential name",
  "access token name (API)",
  "access token name (CLI)",
  "user name (CLI)",
  "embed session personalizationData value",
  "embed session personalizationData key",
  "share ctaUrl",
  "query: /login?callbackUrl=",
  "query: /demo/embed?viewer=",
] as const;
const fieldIndex = (name: (typeof fields)[number]) => fields.indexOf(name);

/** The shortest limit of the names (organization, project, credential, token: 120 characters): every group of payloads fits it. */
const groupLimit = 120;
/** The shortest limit of all (a share's ctaLabel, 80 characters): a group's payloads go to two shares' ctaLabel. */
const ctaLabelLimit = 80;

/** `indexes` in runs whose payloads, tagged with the longest tag, fit `limit` characters. */
function fitting(indexes: number[], limit: number): number[][] {
  const runs: number[][] = [[]];
  let length = 0;
  for (const i of indexes) {
    const size = payloads[i]!(9999).length;
    if (length + size > limit) {
      runs.push([]);
      length = 0;
    }
    runs.at(-1)!.push(i);
    length += size;
  }
  return runs;
}

/** One group of payloads per organization. */
const payloadGroups = () => fitting(payloads.map((_, i) => i), groupLimit);

/** The value of `field` in the world of `group`: its payloads, each tagged with the field. */
const valueOf = (field: (typeof fields)[number], group: number[]) => group.map((p) => payloads[p]!(fieldIndex(field) * 100 + p)).join("");

/** A URL a CTA accepts (absolute http(s), no whitespace) that breaks out of an attribute if it can. */
const ctaUrlOf = (group: number[]) => `https://x.example/"><svg/onload=__xss(${fieldIndex("share ctaUrl") * 100 + group[0]!})>`;

type Setup = { email: string; password: string; pages: string[]; reflected: string[] };

const json = (value: unknown) => ({ name: "file.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(value)) });

async function ok<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

/**
 * One console user, OrganizationAdmin of one organization per group, each with a project, a
 * template, a credential, a DEV share, an embed session and an access token whose every field
 * carries the group's payloads. The CLI (slow: a process each) only where no API can do it.
 */
async function buildWorlds(request: APIRequestContext, groups: number[][]): Promise<Setup> {
  const run = randomUUID();
  const email = `xss-${run}@example.com`;
  const password = `pw-${run}`;
  const [, ...orgs] = await Promise.all([
    cli("user", "create", "--email", email, "--password", password, "--name", valueOf("user name (CLI)", groups[0]!)),
    ...groups.map((group) => cli<{ id: string }>("org", "create", "--name", valueOf("organization name", group))),
  ]);
  const [{ token }] = await Promise.all([
    cli<{ token: string }>("token", "create", "--user", email, "--name", valueOf("access token name (CLI)", groups[0]!)),
    ...orgs.map((org) => cli("member", "add", "--user", email, "--org", org.id, "--role", "OrganizationAdmin")),
  ]);
  const auth = { Authorization: `Bearer ${token}` };
  const worlds = await Promise.all(groups.map((group, i) => buildWorld(request, auth, orgs[i]!.id, group)));
  const demo = `/demo/embed?share=${worlds[0]!.slug}&viewer=${encodeURIComponent(valueOf("query: /demo/embed?viewer=", payloads.map((_, p) => p)))}`;
  return {
    email,
    password,
    pages: ["/projects", "/account/tokens", ...worlds.flatMap((world) => world.pages), demo],
    reflected: [`/login?callbackUrl=${encodeURIComponent(valueOf("query: /login?callbackUrl=", payloads.map((_, p) => p)))}`],
  };
}

/** The group's project in `orgId` and what it shows; the pages that show it. */
async function buildWorld(request: APIRequestContext, auth: Record<string, string>, orgId: string, group: number[]): Promise<{ slug: string; pages: string[] }> {
  const value = (field: (typeof fields)[number]) => valueOf(field, group);
  const project = await ok<{ id: string }>(await request.post(`/api/organizations/${orgId}/projects`, { headers: auth, data: { name: value("project name") } }), 201);
  const layer = value("Lottie text layer name (a field's target)");
  const lottie = makeLottie({ w: 320, h: 180, op: 60, layers: [textLayer(layer, "Hello")] });
  const manifest = {
    version: 1,
    fields: [{ key: "greeting", type: "text", target: { layer }, default: value("manifest field default"), maxLength: 2000 }],
    chapters: [{ id: "intro", name: value("manifest chapter name"), startFrame: 0, endFrame: 30 }],
    ctas: [{ id: "book", name: value("manifest CTA name"), layer }],
  };
  const template = await ok<{ id: string }>(
    await request.post(`/api/Projects/${project.id}/templates/upload`, {
      headers: auth,
      multipart: { kind: "LottieStandalone", name: value("template name"), templateJson: json(lottie), manifestJson: json(manifest) },
    }),
    201,
  );
  const credential = await ok<{ id: string; apiKey: string; apiSecret: string }>(
    await request.post("/api/credentials", { headers: auth, data: { projectId: project.id, name: value("API credential name") } }),
    201,
  );
  await ok(await request.post("/api/me/tokens", { headers: auth, data: { name: value("access token name (API)") } }), 201);
  // The group's payloads in the ctaLabel of two shares: it holds 80 characters.
  const ctaLabels = fitting(group, ctaLabelLimit);
  expect(ctaLabels.length).toBeLessThanOrEqual(2);
  const shares = await Promise.all(
    (["DEV", "STAGING"] as const).map((channel, i) =>
      request.put(`/api/Projects/${project.id}/public-video-shares/${channel}`, {
        headers: auth,
        data: {
          publicTitle: value("share publicTitle"),
          publicSubtitle: value("share publicSubtitle"),
          ctaLabel: valueOf("share ctaLabel", ctaLabels[i] ?? ctaLabels[0]!),
          ctaUrl: ctaUrlOf(group),
          personalizationData: { greeting: value("share personalizationData value"), [value("share personalizationData key")]: "x" },
          apiCredentialId: credential.id,
        },
      }),
    ),
  );
  const [dev, staging] = await Promise.all(shares.map((response) => ok<{ slug: string }>(response, 201)));
  const { token: session } = await ok<{ token: string }>(
    await request.post("/api/embed-sessions", {
      headers: { Authorization: `Basic ${Buffer.from(`${credential.apiKey}:${credential.apiSecret}`).toString("base64")}` },
      data: { channel: "DEV", personalizationData: { greeting: value("embed session personalizationData value"), [value("embed session personalizationData key")]: "x" } },
    }),
    201,
  );
  // The accept page of an invitation to the project: the organization's and the project's names.
  const invitation = await ok<{ acceptUrl: string }>(
    await request.post(`/api/organizations/${orgId}/members`, { headers: auth, data: { email: `xss-invited-${randomUUID()}@example.com`, role: "Viewer", projectId: project.id } }),
    201,
  );
  const p = `/projects/${project.id}`;
  const pages = [
    new URL(invitation.acceptUrl).pathname,
    `/organizations/${orgId}/members`,
    `${p}/shares`,
    `${p}/shares/DEV`,
    `${p}/shares/STAGING`,
    `${p}/templates`,
    `${p}/templates/${template.id}`,
    `${p}/credentials`,
    `${p}/audit`,
    `/v/${dev!.slug}`,
    `/v/${staging!.slug}`,
    `/embed?session=${encodeURIComponent(session)}`,
  ];
  return { slug: dev!.slug, pages };
}

type Findings = { executions: { tag: number; url: string }[]; dialogs: string[]; violations: string[] };

/** A page that reports payloads that ran (__xss in every frame, dialogs) and CSP violations (every frame). */
async function watchedPage(browser: Browser, findings: Findings): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.exposeFunction("__xss", (tag: number) => findings.executions.push({ tag, url: page.url() }));
  await page.exposeFunction("__cspViolation", (report: string) => findings.violations.push(`${page.url()}: ${report}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      void (window as unknown as { __cspViolation: (report: string) => Promise<void> }).__cspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI} in ${event.documentURI} (${event.sample})`,
      );
    });
  });
  page.on("dialog", (dialog) => {
    findings.dialogs.push(`${page.url()}: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  return page;
}

/** Pages whose player iframe the page's own script adds. */
const framed = /^\/(v\/|demo\/|projects\/[^/]+\/templates\/[^/]+$)/;

/** Opens `url` and waits until it and its frames have loaded and every player has left its loading state. */
async function visit(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBeLessThan(400);
  await page.waitForLoadState("load");
  if (framed.test(url)) await page.locator("iframe").first().waitFor({ timeout: 15_000 });
  for (const frame of page.frames()) {
    await frame.waitForFunction(() => document.readyState === "complete" && !document.querySelector("[data-state=loading]"), null, { timeout: 15_000 }).catch(() => {});
  }
  // Handlers of broken images and toggled details run a task or two after load: wait until each
  // frame's event loop has been idle (the tasks queued before have run), not for a fixed time.
  for (const frame of page.frames()) {
    await frame.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 10_000 }), { timeout: 10_000 }))).catch(() => {});
  }
}

test("script payloads in every user-supplied field: 0 executions, 0 dialogs, 0 CSP violations on every page that shows them", async ({ browser, request }) => {
  test.setTimeout(540_000);
  const findings: Findings = { executions: [], dialogs: [], violations: [] };

  // The detectors work: a page without any policy runs its payloads, in its frames too.
  const control = await watchedPage(browser, findings);
  await control.setContent(`<img src=x onerror=__xss(-1)><img src=x onerror=alert(-2)><iframe srcdoc="<img src=x onerror=__xss(-3)>"></iframe>`);
  await expect.poll(() => findings.executions.map(({ tag }) => tag).sort((x, y) => x - y)).toEqual([-3, -1]);
  await expect.poll(() => findings.dialogs.length).toBe(1);
  await control.context().close();
  findings.executions.length = 0;
  findings.dialogs.length = 0;

  const groups = payloadGroups();
  const built = performance.now();
  const setup = await buildWorlds(request, groups);
  const viewed = performance.now();
  const page = await watchedPage(browser, findings);
  for (const url of setup.reflected) await visit(page, url);
  await signIn(page, setup);
  for (const url of setup.pages) await visit(page, url);
  await page.context().close();
  const visits = setup.reflected.length + setup.pages.length;
  const placed = groups.reduce((sum, group) => sum + group.length, 0) * (fields.length - 1) + groups.length; // ctaUrl: one payload a world
  const ran = [...new Set(findings.executions.map(({ tag }) => `${fields[Math.floor(tag / 100)]} × payload ${tag % 100}`))];
  console.log(
    `xss: ${payloads.length} payloads in ${fields.length} fields (${placed} placements, ${groups.length} organizations), ${visits} page views: ` +
      `${findings.executions.length} executions, ${findings.dialogs.length} dialogs, ${findings.violations.length} CSP violations ` +
      `(set-up ${((viewed - built) / 1000).toFixed(0)} s, views ${((performance.now() - viewed) / 1000).toFixed(0)} s)`,
  );
  expect(ran).toEqual([]);
  expect(findings.executions).toEqual([]);
  expect(findings.dialogs).toEqual([]);
  expect(findings.violations).toEqual([]);
});
