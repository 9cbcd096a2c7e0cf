import { randomUUID } from "node:crypto";
import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";
import { createOwnedProject, env, type OwnedProject } from "./owned-project";
import { fillPlaceholders } from "@/shared/templates/placeholders";

type Channel = "DEV" | "STAGING" | "PROD";

type Share = {
  id: string;
  channel: Channel;
  slug: string;
  url: string;
  status: "Enabled" | "Disabled";
  publicTitle: string;
  publicSubtitle: string | null;
  personalizationData: Record<string, unknown> | null;
  locale: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  apiCredentialId: string;
};

type ShareInput = {
  publicTitle: string;
  publicSubtitle?: string;
  locale?: string;
  ctaLabel?: string;
  ctaUrl?: string;
};

const unavailableText = "This video is not available";

/** The title as the page shows it: its {{field|default}} placeholders filled from the share's own data (the demo share has one). */
const shownTitle = (share: Share) =>
  fillPlaceholders(share.publicTitle, Object.fromEntries(Object.entries(share.personalizationData ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string")));

/** The share and credential API of one project, called with one bearer token; every call asserts its status. */
function shareApi(request: APIRequestContext, token: string, projectId: string) {
  const send = async <T>(method: string, path: string, expected: number[], data?: object): Promise<T> => {
    const response = await request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
    expect(expected, `${method} ${path} → ${response.status()} ${await response.text()}`).toContain(response.status());
    return (await response.json()) as T;
  };
  const shares = `/api/Projects/${projectId}/public-video-shares`;
  return {
    getShare: async (channel: Channel) => {
      const { items } = await send<{ items: Share[] }>("GET", shares, [200]);
      const share = items.find((item) => item.channel === channel);
      expect(share, `the project has a ${channel} share`).toBeDefined();
      return share!;
    },
    putShare: (channel: Channel, input: ShareInput & { apiCredentialId: string }) =>
      send<Share>("PUT", `${shares}/${channel}`, [200, 201], input),
    disableShare: (channel: Channel) => send<Share>("POST", `${shares}/${channel}/disable`, [200]),
    restoreShare: (channel: Channel) => send<Share>("POST", `${shares}/${channel}/restore`, [200]),
    rotateShareSlug: (channel: Channel) =>
      send<{ previousSlug: string; slug: string; share: Share }>("POST", `${shares}/${channel}/rotate-slug`, [200]),
    createCredential: () => send<{ id: string }>("POST", "/api/credentials", [201], { projectId, name: `landing e2e ${randomUUID()}` }),
    revokeCredential: (id: string) => send<unknown>("POST", `/api/credentials/${id}/revoke`, [200]),
  };
}

const test = base.extend<{ api: ReturnType<typeof shareApi> }, { ownedProject: OwnedProject }>({
  ownedProject: [async ({}, use) => use(await createOwnedProject("Landing")), { scope: "worker", timeout: 120_000 }],
  api: async ({ request, ownedProject }, use) => {
    await use(shareApi(request, ownedProject.token, ownedProject.projectId));
  },
});

/** Creates or replaces the channel's share on a new credential of the project, Enabled whatever an earlier test left. */
async function putFreshShare(api: ReturnType<typeof shareApi>, channel: Channel, input: ShareInput) {
  const credential = await api.createCredential();
  await api.putShare(channel, { ...input, apiCredentialId: credential.id });
  const share = await api.restoreShare(channel);
  expect(share.status).toBe("Enabled");
  return { share, credentialId: credential.id };
}

/** The call to action is drawn by the player (a click there is recorded as cta.clicked). */
const playerCta = (page: Page, label: string) => page.frameLocator('[data-testid="player-slot"] iframe').getByRole("link", { name: label });

async function expectUnavailable(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(unavailableText);
  return page.locator("main").innerText();
}

async function expectLanding(page: Page, url: string, share: Share) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(shownTitle(share));
}

test("GET /v/{slug} – the demo PROD share through disable, restore and rotate-slug", async ({ page, request }) => {
  const demo = shareApi(request, env("E2E_API_TOKEN"), env("E2E_PROJECT_ID"));
  const share = await demo.getShare("PROD");
  expect(share.status).toBe("Enabled");
  expect(share.url, "the demo share still has the URL the start banner printed").toBe(env("E2E_SHARE_URL"));
  expect(share.ctaLabel && share.ctaUrl, "the demo share has a call to action").toBeTruthy();

  try {
    await expectLanding(page, env("E2E_SHARE_URL"), share);
    const cta = playerCta(page, share.ctaLabel!);
    await expect(cta).toHaveAttribute("href", share.ctaUrl!);
    const rel = ((await cta.getAttribute("rel")) ?? "").split(/\s+/);
    expect(rel).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));

    expect((await demo.disableShare("PROD")).status).toBe("Disabled");
    const disabled = await page.reload();
    expect(disabled?.status()).toBe(404);
    await expect(page.getByText(unavailableText)).toBeVisible();
    await expect(page.getByRole("heading", { name: shownTitle(share) })).toHaveCount(0);

    expect((await demo.restoreShare("PROD")).status).toBe("Enabled");
    const restored = await page.reload();
    expect(restored?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(shownTitle(share));
    await expect(playerCta(page, share.ctaLabel!)).toHaveAttribute("href", share.ctaUrl!);

    const rotated = await demo.rotateShareSlug("PROD");
    expect(rotated.previousSlug).toBe(share.slug);
    expect(rotated.slug).not.toBe(share.slug);
    expect(rotated.share.url).toBe(new URL(`/v/${rotated.slug}`, env("E2E_BASE_URL")).href);
    await expectUnavailable(page, env("E2E_SHARE_URL"));
    await expectLanding(page, rotated.share.url, share);
  } finally {
    // Other tests and specs may use the demo share: never leave it disabled.
    await demo.restoreShare("PROD");
  }
});

test("GET /v/{slug} – HTML in the title and subtitle is shown as text, never run", async ({ page, api }) => {
  const script = "<script>window.__xss=1</script>";
  const img = `<img src=x onerror="window.__xss=1">`;
  for (const [publicTitle, publicSubtitle] of [
    [script, img],
    [img, script],
  ] as const) {
    const { share } = await putFreshShare(api, "DEV", { publicTitle, publicSubtitle });
    const response = await page.goto(share.url);
    expect(response?.status()).toBe(200);

    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(publicTitle);
    await expect(page.locator("main header p")).toHaveText(publicSubtitle);
    await expect(page).toHaveTitle(publicTitle);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", publicTitle);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", publicSubtitle);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  }
});

test("GET /v/{slug} – <html lang> is the share's locale, en when it has none", async ({ page, api }) => {
  const { share: brazilian } = await putFreshShare(api, "DEV", { publicTitle: "Seu plano", locale: "pt-BR" });
  expect(brazilian.locale).toBe("pt-BR");
  await expectLanding(page, brazilian.url, brazilian);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");

  const { share: unspecified } = await putFreshShare(api, "DEV", { publicTitle: "Your plan" });
  expect(unspecified.locale).toBeNull();
  await expectLanding(page, unspecified.url, unspecified);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("GET /v/{slug} – Open Graph title and description are the share's", async ({ page, api }) => {
  const { share } = await putFreshShare(api, "DEV", {
    publicTitle: "Your retirement plan, Ana",
    publicSubtitle: "Three minutes on what changes in 2026 & why",
    ctaLabel: "Review my plan",
    ctaUrl: "https://example.com/plan?who=ana&step=1",
  });
  await expectLanding(page, share.url, share);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", share.publicTitle);
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", share.publicSubtitle!);
  await expect(page.locator("main header p")).toHaveText(share.publicSubtitle!);
  await expect(playerCta(page, "Review my plan")).toHaveAttribute("href", share.ctaUrl!);
});

test("GET /v/{slug} – a Content-Security-Policy with frame-ancestors on the landing page and the 404 page", async ({ request, api }) => {
  const { share } = await putFreshShare(api, "DEV", { publicTitle: "Your plan" });
  const landing = await request.get(share.url);
  const unknown = await request.get(`/v/${randomUUID().replaceAll("-", "")}`);
  for (const [response, status] of [
    [landing, 200],
    [unknown, 404],
  ] as const) {
    expect(response.status(), response.url()).toBe(status);
    expect(response.headers()["content-security-policy"] ?? "", response.url()).toContain("frame-ancestors");
  }
});

test("GET /v/{slug} – the player slot keeps a 16:9 box on a phone and a desktop", async ({ page, api }) => {
  const { share } = await putFreshShare(api, "DEV", { publicTitle: "Your plan" });
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await expectLanding(page, share.url, share);
    const box = await page.getByTestId("player-slot").boundingBox();
    expect(box, "the player slot is rendered").not.toBeNull();
    expect(box!.width).toBeGreaterThan(0);
    const ratio = box!.width / box!.height;
    expect(Math.abs(ratio - 16 / 9) / (16 / 9), `ratio ${ratio} at ${viewport.width}px`).toBeLessThan(0.01);
  }
});

test("GET /v/{slug} – the demo share's slot has its deployed template's proportions and fits the screen", async ({ page, request }) => {
  const headers = { authorization: `Bearer ${process.env.E2E_API_TOKEN}` };
  const projectId = process.env.E2E_PROJECT_ID!;
  const shares = (await (await request.get(`/api/Projects/${projectId}/public-video-shares`, { headers })).json()) as { items: { channel: string; url: string }[] };
  const templates = (await (await request.get(`/api/Projects/${projectId}/templates?status=Production`, { headers })).json()) as { items: { width: number; height: number }[] };
  const [live] = templates.items;
  expect(live, "the bootstrap deployed a template").toBeDefined();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(shares.items.find((s) => s.channel === "PROD")!.url);
  const box = (await page.getByTestId("player-slot").boundingBox())!;
  expect(Math.abs(box.width / box.height - live!.width / live!.height)).toBeLessThan(0.01);
  expect(box.height).toBeLessThanOrEqual(800 * 0.8 + 1);
});

test("GET /v/{slug} – unknown, malformed, rotated-out, disabled and revoked-credential slugs give one 404 page", async ({ page, api }) => {
  const { share: staging } = await putFreshShare(api, "STAGING", { publicTitle: "Staging plan" });
  await expectLanding(page, staging.url, staging);
  const { slug: rotatedIn } = await api.rotateShareSlug("STAGING");
  await expectLanding(page, `/v/${rotatedIn}`, staging);
  await api.disableShare("STAGING");

  const { share: prod, credentialId } = await putFreshShare(api, "PROD", { publicTitle: "Prod plan" });
  await expectLanding(page, prod.url, prod);
  await api.revokeCredential(credentialId);

  const cases: [string, string][] = [
    ["unknown slug", `/v/${randomUUID().replaceAll("-", "")}`],
    ["slug with a hyphen", "/v/a-b"],
    ["path traversal, encoded", `/v/${encodeURIComponent("../etc")}`],
    ["slug longer than any issued", `/v/${"a".repeat(65)}`],
    ["rotated-out slug", `/v/${staging.slug}`],
    ["disabled share", `/v/${rotatedIn}`],
    ["share whose credential was revoked", `/v/${prod.slug}`],
  ];
  const texts = new Map<string, string>();
  for (const [name, url] of cases) {
    await test.step(name, async () => {
      texts.set(name, await expectUnavailable(page, url));
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
    });
  }
  const [first] = texts.values();
  expect(first).toContain(unavailableText);
  for (const [name, text] of texts) expect(text, name).toBe(first);
});
