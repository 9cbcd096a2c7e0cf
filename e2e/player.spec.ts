import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createOwnedProject, env } from "./owned-project";

// The player iframe and the SDK in Chromium, on two origins: the app (and so the player) is
// http://localhost:PORT; the demo customer page runs on http://127.0.0.1:PORT. Analytics are
// observed where they leave the host page: the POSTs to the real ingest endpoint.

type WireEvent = {
  event_id: string;
  event_type: string;
  playback_id: number | null;
  payload: Record<string, unknown>;
  consent: { status: string };
  session_id: string;
  template_id: string;
};
type DemoCall = { name: string; message: { type: string; code?: string; percent?: number; positionMs?: number; durationMs?: number; ctaId?: string } };
type Share = { id: string; slug: string; url: string; channel: string };

const fixture = (relative: string) => readFileSync(`lib/testing/fixtures/${relative}`);
const secondOrigin = () => env("E2E_BASE_URL").replace("//localhost:", "//127.0.0.1:");

/** A project of the test's own with a template, a credential and a share serving it. */
async function setUpShare(request: APIRequestContext, label: string, upload: Record<string, unknown>, share: Record<string, unknown> = {}) {
  const { projectId, token } = await createOwnedProject(label);
  const auth = { Authorization: `Bearer ${token}` };
  const uploaded = await request.post(`/api/Projects/${projectId}/templates/upload`, { headers: auth, multipart: upload as never });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const credential = await request.post("/api/credentials", { headers: auth, data: { projectId, name: label } });
  expect(credential.status()).toBe(201);
  const { id, apiKey, apiSecret } = (await credential.json()) as { id: string; apiKey: string; apiSecret: string };
  // DEV serves the newest Testing template: no deploy needed.
  const put = await request.put(`/api/Projects/${projectId}/public-video-shares/DEV`, {
    headers: auth,
    data: { publicTitle: label, apiCredentialId: id, ...share },
  });
  expect(put.status(), await put.text()).toBe(201);
  const created = (await put.json()) as Share;
  const basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;
  return {
    projectId,
    share: created,
    async session(body: Record<string, unknown>) {
      const response = await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV", ...body } });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { token: string }).token;
    },
  };
}

const lightsUpload = {
  kind: "LottieStandalone",
  name: "Lights",
  templateJson: { name: "lights.json", mimeType: "application/json", buffer: fixture("lottie/lights.json") },
};

/** Every analytics event and consent beacon the host page sends, with the ingest's answers. */
function recordAnalytics(page: Page) {
  const events: WireEvent[] = [];
  const beacons: { event: WireEvent }[] = [];
  const statuses: number[] = [];
  const origins: (string | null)[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST") return;
    const path = new URL(request.url()).pathname;
    if (path === "/analytics/v1/events") {
      events.push(...(request.postDataJSON() as { events: WireEvent[] }).events);
      origins.push(request.headers()["origin"] ?? null);
    } else if (path === "/analytics/v1/consent") {
      beacons.push(JSON.parse(request.postData() ?? "null") as { event: WireEvent });
    }
  });
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/analytics/v1/events" && response.request().method() === "POST") statuses.push(response.status());
  });
  const types = (playbackId?: number) =>
    events.filter((e) => playbackId === undefined || e.playback_id === playbackId).map((e) => (e.event_type === "video.progressed" ? `progressed ${e.payload.percent}` : e.event_type));
  return { events, beacons, statuses, origins, types };
}

const demoCalls = (page: Page) => page.evaluate(() => (window as unknown as { reelbindDemo: { calls: DemoCall[] } }).reelbindDemo.calls);
const hostCommand = (page: Page, script: string) => page.evaluate(`window.reelbindDemo.player.${script}`);

async function waitForCall(page: Page, predicate: (call: DemoCall) => boolean, timeout = 15_000) {
  await expect.poll(async () => (await demoCalls(page)).some(predicate), { timeout }).toBe(true);
}

test.describe.configure({ timeout: 120_000 });

test("GET /v/{slug} – the demo share plays the weather card with the bound city, and its analytics reach the ingest", async ({ page, request }) => {
  const demo = await request.get(`/api/Projects/${env("E2E_PROJECT_ID")}/public-video-shares`, {
    headers: { Authorization: `Bearer ${env("E2E_API_TOKEN")}` },
  });
  const share = ((await demo.json()) as { items: (Share & { personalizationData: Record<string, string> })[] }).items.find((s) => s.channel === "PROD")!;
  expect(share.personalizationData.City).toBe("Lisbon");
  const analytics = recordAnalytics(page);

  await page.goto(share.url);
  const player = page.frameLocator('[data-testid="player-slot"] iframe');
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/, { timeout: 15_000 });
  await expect(player.getByText("Lisbon", { exact: true })).toBeVisible();
  await expect.poll(() => analytics.types(), { timeout: 15_000 }).toEqual(expect.arrayContaining(["session.started", "video.played"]));
  expect(analytics.statuses.every((status) => status === 202)).toBe(true);

});

test("demo page on a second origin – an embed session binds its data: the screenshot of the same frame differs by the city alone", async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${env("E2E_API_TOKEN")}` };
  const credential = await request.post("/api/credentials", { headers: auth, data: { projectId: env("E2E_PROJECT_ID"), name: "player e2e" } });
  const { apiKey, apiSecret } = (await credential.json()) as { apiKey: string; apiSecret: string };
  const basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;

  const frameWith = async (city: string) => {
    const minted = await request.post("/api/embed-sessions", {
      headers: { Authorization: basic },
      data: { channel: "PROD", personalizationData: { City: city }, allowedOrigins: [secondOrigin()] },
    });
    expect(minted.status()).toBe(201);
    const { token } = (await minted.json()) as { token: string };
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    await hostCommand(page, "seek(6000)");
    await waitForCall(page, (call) => call.name === "onProgress" && call.message.positionMs === 6000);
    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await expect(player.getByText(city, { exact: true })).toBeVisible();
    return page.getByTestId("demo-player").screenshot();
  };
  const lisbon = await frameWith("Lisbon");
  const reykjavik = await frameWith("Reykjavik");
  const lisbonAgain = await frameWith("Lisbon");
  expect(lisbon.equals(reykjavik)).toBe(false);
  expect(lisbon.equals(lisbonAgain)).toBe(true);
});

test.describe("the player embedded on a customer site through an embed session", () => {
  let lights: Awaited<ReturnType<typeof setUpShare>>;
  test.beforeAll(async ({ request }) => {
    lights = await setUpShare(request, "Player lights", lightsUpload, { ctaLabel: "Open offer", ctaUrl: `${env("E2E_BASE_URL")}/api/health` });
  });

  test("full playback: session.started, video.played(1), progressed 25/50/75, completed; a replay is playback 2 with its own quartiles", async ({ page }) => {
    const token = await lights.session({ allowedOrigins: [secondOrigin()] });
    const analytics = recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}&autoplay=1`);

    await expect.poll(() => analytics.types(), { timeout: 20_000 }).toContain("video.completed");
    expect(analytics.types().filter((type) => type !== "chapter.entered" && type !== "chapter.exited")).toEqual([
      "session.started",
      "video.played",
      "progressed 25",
      "progressed 50",
      "progressed 75",
      "video.completed",
    ]);
    expect(analytics.events[0]!.playback_id).toBeNull();
    expect(analytics.events.slice(1).every((event) => event.playback_id === 1)).toBe(true);
    expect(analytics.events.find((e) => e.event_type === "video.completed")!.payload).toMatchObject({ percent: 100 });
    await waitForCall(page, (call) => call.name === "onComplete");

    await hostCommand(page, "play()");
    await expect.poll(() => analytics.types(2), { timeout: 20_000 }).toContain("video.completed");
    expect(analytics.types(2)).toEqual(["video.played", "progressed 25", "progressed 50", "progressed 75", "video.completed"]);

    // Every batch came from the allowed second origin and was stored by the real ingest.
    expect(new Set(analytics.origins)).toEqual(new Set([secondOrigin()]));
    expect(analytics.statuses.length).toBeGreaterThan(0);
    expect(analytics.statuses.every((status) => status === 202)).toBe(true);
    expect(new Set(analytics.events.map((e) => e.session_id)).size).toBe(1);
  });

  test("a seek from 10 % to 80 % gives only the 75 % quartile", async ({ page }) => {
    const token = await lights.session({ allowedOrigins: [secondOrigin()] });
    const analytics = recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    const duration = (await demoCalls(page)).find((call) => call.name === "onReady")!.message.durationMs!;

    await hostCommand(page, "play()");
    await waitForCall(page, (call) => call.name === "onProgress" && (call.message.percent ?? 0) >= 10);
    await hostCommand(page, "pause()");
    await hostCommand(page, `seek(${Math.round(duration * 0.8)})`);
    await hostCommand(page, "play()");
    await expect.poll(() => analytics.types(1), { timeout: 20_000 }).toContain("video.completed");
    expect(analytics.types(1).filter((type) => type.startsWith("progressed"))).toEqual(["progressed 75"]);
  });

  test("an INIT from an origin the session does not allow is ignored: no READY, no analytics", async ({ page }) => {
    const token = await lights.session({ allowedOrigins: [secondOrigin()] });
    const analytics = recordAnalytics(page);
    // The app's own origin may frame the player (frame-ancestors 'self'), but it is not in allowed_origins.
    await page.goto(`${env("E2E_BASE_URL")}/demo/embed?session=${encodeURIComponent(token)}&autoplay=1`);
    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-first-frame", /\d/, { timeout: 15_000 });
    await page.waitForTimeout(2000);
    expect(await demoCalls(page)).toEqual([]);
    expect(analytics.events).toEqual([]);
    await expect(player.locator("#reelbind-player")).not.toHaveAttribute("data-state", "playing");

    // The same session on the allowed origin starts.
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
  });

  test("a click on the CTA reaches the host's onCta and the analytics channel, and opens the URL in a new tab", async ({ page, context }) => {
    const token = await lights.session({ allowedOrigins: [secondOrigin()] });
    const analytics = recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    const cta = page.frameLocator('[data-testid="demo-player"] iframe').getByRole("link", { name: "Open offer" });
    expect(((await cta.getAttribute("rel")) ?? "").split(/\s+/)).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
    const [popup] = await Promise.all([context.waitForEvent("page"), cta.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${env("E2E_BASE_URL")}/api/health`);
    await waitForCall(page, (call) => call.name === "onCta" && call.message.ctaId === "share");
    await expect.poll(() => analytics.events.filter((e) => e.event_type === "cta.clicked").map((e) => e.payload), { timeout: 10_000 }).toEqual([
      expect.objectContaining({ cta_id: "share", cta_name: "Open offer" }),
    ]);
  });
});

test.describe("consent on the landing page", () => {
  let consentShare: Awaited<ReturnType<typeof setUpShare>>;
  test.beforeAll(async ({ request }) => {
    consentShare = await setUpShare(request, "Player consent", lightsUpload, { consentMode: "required" });
  });

  test("nothing is sent before the viewer accepts; Accept sends the consent beacon and the held events with status granted", async ({ page }) => {
    const analytics = recordAnalytics(page);
    await page.goto(consentShare.share.url);
    const banner = page.getByRole("dialog", { name: "Analytics consent" });
    await expect(banner).toBeVisible();
    const player = page.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/, { timeout: 15_000 });
    await page.waitForTimeout(1500);
    expect(analytics.events).toEqual([]);

    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(() => analytics.beacons.map((b) => [b.event.event_type, b.event.consent.status, b.event.payload.source])).toEqual([
      ["consent.accepted", "granted", "banner"],
    ]);
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "video.played"]));
    expect(analytics.events.every((event) => event.consent.status === "granted")).toBe(true);

    // The choice is remembered: the next visit asks nothing and sends at once.
    await page.reload();
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/, { timeout: 15_000 });
    await expect(banner).toBeHidden();
  });

  test("Decline sends the consent.declined beacon and no events, ever", async ({ page }) => {
    const analytics = recordAnalytics(page);
    await page.goto(consentShare.share.url);
    await page.getByRole("dialog", { name: "Analytics consent" }).getByRole("button", { name: "Decline" }).click();
    await expect.poll(() => analytics.beacons.map((b) => [b.event.event_type, b.event.consent.status])).toEqual([["consent.declined", "denied"]]);
    const player = page.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/, { timeout: 15_000 });
    await page.waitForTimeout(1500);
    expect(analytics.events).toEqual([]);
  });
});

test.describe("autoplay with sound where the browser requires a user gesture", () => {
  test.use({
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=document-user-activation-required"],
    },
  });

  test("a Raster template: WARN AUTOPLAY_BLOCKED to onWarn and autoplay.failed to the ingest; a click then plays it", async ({ page, request }) => {
    const raster = await setUpShare(request, "Player raster", {
      kind: "Raster",
      name: "Raster",
      videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: fixture("video/background-640x360-6s.mp4") },
      posterFile: { name: "poster.png", mimeType: "image/png", buffer: fixture("video/poster-640x360.png") },
    });
    const analytics = recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?share=${raster.share.slug}&autoplay=1`);
    await waitForCall(page, (call) => call.name === "onWarn" && call.message.code === "AUTOPLAY_BLOCKED");
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "autoplay.failed"]));
    expect(analytics.types()).not.toContain("video.played");

    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await player.getByRole("button", { name: /play/i }).first().click();
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", "playing", { timeout: 10_000 });
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["video.played", "interaction.engaged"]));
  });
});
