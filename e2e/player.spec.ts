import { expect, test } from "@playwright/test";
import { makeLottie, textLayer } from "../testing/fixtures/lottie-builders";
import { demoCalls, fixture, hostCommand, lightsUpload, recordAnalytics, secondOrigin, settledScreenshot, setUpShare, waitForCall, type Share } from "./embed-helpers";
import { env } from "./owned-project";

// The player iframe and the SDK in Chromium, on two origins: the app (and so the player) is
// http://localhost:PORT; the demo customer page runs on http://127.0.0.1:PORT. Analytics are
// observed where they leave the host page: the POSTs to the real ingest endpoint.

test.describe.configure({ timeout: 120_000 });

test("GET /v/{slug} – the demo share plays the welcome message with the bound name, and its analytics reach the ingest", async ({ page, request }) => {
  const demo = await request.get(`/api/Projects/${env("E2E_PROJECT_ID")}/public-video-shares`, {
    headers: { Authorization: `Bearer ${env("E2E_API_TOKEN")}` },
  });
  const share = ((await demo.json()) as { items: (Share & { personalizationData: Record<string, string> })[] }).items.find((s) => s.channel === "PROD")!;
  expect(share.personalizationData.firstName).toBe("Ana");
  const analytics = await recordAnalytics(page);
  // The player box's size as the HTML arrives, before the poster, the SDK or the player load.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      const box = document.querySelector('[data-testid="player-slot"]')!.getBoundingClientRect();
      (window as unknown as { __slotAtParse: number[] }).__slotAtParse = [box.width, box.height];
    });
  });

  await page.goto(share.url);
  // Until the first frame the box shows the share's poster, which is also the Open Graph image.
  const poster = `${env("E2E_BASE_URL")}/api/embed/posters/${share.slug}`;
  await expect(page.getByTestId("player-slot").locator("img")).toHaveAttribute("src", poster);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", poster);
  const posterResponse = await request.get(poster);
  expect([posterResponse.status(), posterResponse.headers()["content-type"]]).toEqual([200, "image/png"]);
  const player = page.frameLocator('[data-testid="player-slot"] iframe');
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
  await expect(player.getByText("Ana", { exact: true })).toBeVisible();
  await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "video.played"]));
  await expect.poll(() => analytics.statuses.length).toBeGreaterThan(0);
  expect(analytics.statuses.every((status) => status === 202)).toBe(true);
  // The box was reserved before the poster and the player arrived: it has not changed size since.
  const slotNow = (await page.getByTestId("player-slot").boundingBox())!;
  const slotAtParse = await page.evaluate(() => (window as unknown as { __slotAtParse: number[] }).__slotAtParse);
  expect(slotAtParse[1]).toBeGreaterThan(100);
  expect(slotAtParse.map(Math.round)).toEqual([slotNow.width, slotNow.height].map(Math.round));
});

test("demo page on a second origin – an embed session binds its data: the screenshot of the same frame differs by the name alone", async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${env("E2E_API_TOKEN")}` };
  const credential = await request.post("/api/credentials", { headers: auth, data: { projectId: env("E2E_PROJECT_ID"), name: "player e2e" } });
  const { apiKey, apiSecret } = (await credential.json()) as { apiKey: string; apiSecret: string };
  const basic = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;

  const frameWith = async (name: string) => {
    const minted = await request.post("/api/embed-sessions", {
      headers: { Authorization: basic },
      data: { channel: "PROD", personalizationData: { firstName: name }, allowedOrigins: [secondOrigin()] },
    });
    expect(minted.status()).toBe(201);
    const { token } = (await minted.json()) as { token: string };
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    await hostCommand(page, "seek(6000)");
    await waitForCall(page, (call) => call.name === "onProgress" && call.message.positionMs === 6000);
    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await expect(player.getByText(name, { exact: true })).toBeVisible();
    return settledScreenshot(page.getByTestId("demo-player"));
  };
  const bruno = await frameWith("Bruno");
  const carolina = await frameWith("Carolina");
  const brunoAgain = await frameWith("Bruno");
  expect(bruno.equals(carolina)).toBe(false);
  expect(bruno.equals(brunoAgain)).toBe(true);

  // The host page's data overrides the session's, live.
  await hostCommand(page, 'setData({ firstName: "Dara" })');
  const player = page.frameLocator('[data-testid="demo-player"] iframe');
  await expect(player.getByText("Dara", { exact: true })).toBeVisible();
  await expect(player.getByText("Bruno", { exact: true })).toHaveCount(0);
});

test.describe("the player embedded on a customer site through an embed session", () => {
  let lights: Awaited<ReturnType<typeof setUpShare>>;
  test.beforeAll(async ({ request }) => {
    lights = await setUpShare(request, "Player lights", lightsUpload, { ctaLabel: "Open offer", ctaUrl: `${env("E2E_BASE_URL")}/api/health` });
  });

  test("full playback: session.started, video.played(1), progressed 25/50/75, completed; a replay is playback 2 with its own quartiles", async ({ page, request }) => {
    const token = await lights.session(request, { allowedOrigins: [secondOrigin()] });
    const analytics = await recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}&autoplay=1`);

    await expect.poll(() => analytics.types()).toContain("video.completed");
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
    const completed = analytics.events.find((e) => e.event_type === "video.completed")!.payload;
    expect(completed).toMatchObject({ percent: 100 });
    // Played to the end without a stop: one span, from where video.played was reported (the
    // clock has run for a while by then, longer on a busy machine, but not to the first
    // quartile, which comes after it) to the end.
    const startedAt = (playbackId: number) => analytics.events.find((e) => e.event_type === "video.played" && e.playback_id === playbackId)!.payload.position_ms as number;
    expect(startedAt(1)).toBeLessThan((completed.duration_ms as number) * 0.25);
    expect(completed.watched).toEqual([[startedAt(1), completed.duration_ms]]);
    await waitForCall(page, (call) => call.name === "onComplete");

    await hostCommand(page, "play()");
    await expect.poll(() => analytics.types(2)).toContain("video.completed");
    expect(analytics.types(2)).toEqual(["video.played", "progressed 25", "progressed 50", "progressed 75", "video.completed"]);
    const replayed = analytics.events.find((e) => e.event_type === "video.completed" && e.playback_id === 2)!.payload;
    expect(startedAt(2)).toBeLessThan((completed.duration_ms as number) * 0.25);
    expect(replayed.watched).toEqual([[startedAt(2), completed.duration_ms]]);

    // Every batch came from the allowed second origin and was stored by the real ingest.
    await expect.poll(() => new Set(analytics.origins)).toEqual(new Set([secondOrigin()]));
    expect(analytics.statuses.length).toBeGreaterThan(0);
    expect(analytics.statuses.every((status) => status === 202)).toBe(true);
    expect(new Set(analytics.events.map((e) => e.session_id)).size).toBe(1);
  });

  test("a seek from 10 % to 80 % reports no quartile it skipped: the 75 % one, and none between the pause and the seek", async ({ page, request }) => {
    const token = await lights.session(request, { allowedOrigins: [secondOrigin()] });
    const analytics = await recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    const duration = (await demoCalls(page)).find((call) => call.name === "onReady")!.message.durationMs!;

    await hostCommand(page, "play()");
    await waitForCall(page, (call) => call.name === "onProgress" && (call.message.percent ?? 0) >= 10);
    await hostCommand(page, "pause()");
    await hostCommand(page, `seek(${Math.round(duration * 0.8)})`);
    await hostCommand(page, "play()");
    await expect.poll(() => analytics.types(1)).toContain("video.completed");
    const payloads = (type: string) => analytics.events.filter((e) => e.event_type === type).map((e) => e.payload);
    const [paused] = payloads("video.paused");
    // The pause is asked for at 10 %; on a busy machine playback may pass 25 % before it lands.
    // A quartile played before the pause is reported; the ones the seek jumped over are not.
    const playedBeforePause = [25, 50].filter((quartile) => (paused!.position_ms as number) >= (duration * quartile) / 100);
    expect(analytics.types(1).filter((type) => type.startsWith("progressed"))).toEqual([...playedBeforePause.map((q) => `progressed ${q}`), "progressed 75"]);

    // Watched: 0 up to the pause, then from the seek's target to the end; the skipped part is not.
    const [started, resumed] = payloads("video.played");
    const [completed] = payloads("video.completed");
    expect(paused!.position_ms).toBeGreaterThanOrEqual(duration * 0.1);
    expect(started!.position_ms).toBeLessThan(duration * 0.25);
    expect(paused!.watched).toEqual([[started!.position_ms, paused!.position_ms]]);
    expect(resumed!.position_ms).toBeGreaterThanOrEqual(Math.round(duration * 0.8));
    expect(resumed!.position_ms).toBeLessThan(duration);
    expect(completed!.watched).toEqual([[resumed!.position_ms, completed!.duration_ms]]);
  });

  test("an INIT from an origin the session does not allow is ignored: no READY, no analytics", async ({ page, request }) => {
    const token = await lights.session(request, { allowedOrigins: [secondOrigin()] });
    const analytics = await recordAnalytics(page);
    // The app's own origin may frame the player (frame-ancestors 'self'), but it is not in allowed_origins.
    const refused = page.waitForEvent("console", (message) => message.text().includes("ignored: the embed session's allowed origins do not include it"));
    await page.goto(`${env("E2E_BASE_URL")}/demo/embed?session=${encodeURIComponent(token)}&autoplay=1`);
    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-first-frame", /\d/);
    // The player has read the host's INIT and ignored it; nothing else could start it.
    expect((await refused).text()).toContain(`INIT from ${env("E2E_BASE_URL")} ignored`);
    expect(await demoCalls(page)).toEqual([]);
    expect(analytics.events).toEqual([]);
    await expect(player.locator("#reelbind-player")).not.toHaveAttribute("data-state", "playing");

    // The same session on the allowed origin starts.
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
  });

  test("a click on the CTA reaches the host's onCta and the analytics channel, and opens the URL in a new tab", async ({ page, context, request }) => {
    const token = await lights.session(request, { allowedOrigins: [secondOrigin()] });
    const analytics = await recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
    await waitForCall(page, (call) => call.name === "onReady");
    const cta = page.frameLocator('[data-testid="demo-player"] iframe').getByRole("link", { name: "Open offer" });
    expect(((await cta.getAttribute("rel")) ?? "").split(/\s+/)).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
    const [popup] = await Promise.all([context.waitForEvent("page"), cta.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${env("E2E_BASE_URL")}/api/health`);
    await waitForCall(page, (call) => call.name === "onCta" && call.message.ctaId === "share");
    await expect.poll(() => analytics.events.filter((e) => e.event_type === "cta.clicked").map((e) => e.payload)).toEqual([
      expect.objectContaining({ cta_id: "share", cta_name: "Open offer" }),
    ]);
  });
});

test("a Raster template: the Lottie overlay follows the video's time — hidden before its offset and after its end — with the bound text", async ({ page, request }) => {
  // A 3-second overlay that starts 2 seconds into the 6-second video.
  const overlay = makeLottie({ w: 640, h: 360, fr: 30, op: 90, layers: [textLayer("{{City}}", "Nowhere", { op: 90, size: 48, y: 180 })] });
  const json = (value: unknown, name: string) => ({ name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(value)) });
  const raster = await setUpShare(
    request,
    "Player overlay",
    {
      kind: "Raster",
      name: "Overlay",
      videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: fixture("video/background-640x360-6s.mp4") },
      templateJson: json(overlay, "overlay.json"),
      overlayJson: json({ version: 1, fit: "contain", offsetSeconds: 2 }, "overlay-config.json"),
    },
    { personalizationData: { City: "Lisbon" } },
  );
  await page.goto(`${secondOrigin()}/demo/embed?share=${raster.share.slug}`);
  await waitForCall(page, (call) => call.name === "onReady");
  const city = page.frameLocator('[data-testid="demo-player"] iframe').getByText("Lisbon", { exact: true });
  for (const [positionMs, shown] of [
    [1000, false],
    [3000, true],
    [4500, true],
    [5500, false],
    [2500, true],
  ] as const) {
    await hostCommand(page, `seek(${positionMs})`);
    await waitForCall(page, (call) => call.name === "onProgress" && call.message.positionMs === positionMs);
    if (shown) await expect(city, `at ${positionMs} ms`).toBeVisible();
    else await expect(city, `at ${positionMs} ms`).toBeHidden();
  }
});

test.describe("consent on the landing page", () => {
  let consentShare: Awaited<ReturnType<typeof setUpShare>>;
  test.beforeAll(async ({ request }) => {
    consentShare = await setUpShare(request, "Player consent", lightsUpload, { consentMode: "required" });
  });

  test("nothing is sent before the viewer accepts; Accept sends the consent beacon and the held events with status granted", async ({ page }) => {
    const analytics = await recordAnalytics(page);
    await page.goto(consentShare.share.url);
    const banner = page.getByRole("dialog", { name: "Analytics consent" });
    await expect(banner).toBeVisible();
    const player = page.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    // Played to the end, its last event received by the host page once the tracking bundle ran:
    // an event not held would have been sent in that same task.
    const log = await analytics.afterReceived("video.completed");
    expect(log.filter((entry) => entry.batchSent)).toEqual([]);
    expect(analytics.events).toEqual([]);

    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(async () => (await analytics.beacons()).map(({ url, body: { event } }) => [new URL(url).pathname, event.event_type, event.consent.status, event.payload.source])).toEqual([
      ["/analytics/v1/consent", "consent.accepted", "granted", "banner"],
    ]);
    await expect.poll(() => analytics.beaconStatuses).toEqual([202]);
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "video.played"]));
    expect(analytics.events.every((event) => event.consent.status === "granted")).toBe(true);

    // The choice is remembered: the next visit asks nothing and sends at once.
    await page.reload();
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    await expect(banner).toBeHidden();
  });

  test("Decline sends the consent.declined beacon and no events, ever", async ({ page }) => {
    const analytics = await recordAnalytics(page);
    await page.goto(consentShare.share.url);
    await page.getByRole("dialog", { name: "Analytics consent" }).getByRole("button", { name: "Decline" }).click();
    await expect.poll(async () => (await analytics.beacons()).map(({ body: { event } }) => [event.event_type, event.consent.status])).toEqual([["consent.declined", "denied"]]);
    await expect.poll(() => analytics.beaconStatuses).toEqual([202]);
    const player = page.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    // As above: the events the player sent after the choice (up to the end) were dropped, not sent.
    const log = await analytics.afterReceived("video.completed");
    expect(log.filter((entry) => entry.batchSent)).toEqual([]);
    expect(analytics.events).toEqual([]);
  });
});
