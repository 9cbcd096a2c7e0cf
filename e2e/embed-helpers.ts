import { readFileSync } from "node:fs";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { createOwnedProject, env } from "./owned-project";

// Shared by the player specs: a project with a template and a share, the demo customer page's
// SDK calls, and the analytics the host page sends.

export type WireEvent = {
  event_id: string;
  event_type: string;
  playback_id: number | null;
  payload: Record<string, unknown>;
  consent: { status: string };
  session_id: string;
  template_id: string;
  viewer_hash?: string;
};
export type DemoCall = { name: string; message: { type: string; code?: string; percent?: number; positionMs?: number; durationMs?: number; ctaId?: string } };
export type Share = { id: string; slug: string; url: string; channel: string };

/** A desktop Chrome's user agent: Playwright's headless one is a bot to the ingest, which leaves its events out of the reports. */
export const desktopChrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export const fixture = (relative: string) => readFileSync(`testing/fixtures/${relative}`);
export const secondOrigin = () => env("E2E_BASE_URL").replace("//localhost:", "//127.0.0.1:");

/** A project of the test's own with a template, a credential and a share serving it. */
export async function setUpShare(request: APIRequestContext, label: string, upload: Record<string, unknown>, share: Record<string, unknown> = {}) {
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
    token,
    credentialId: id,
    share: created,
    /** An embed-session token for the share (request: the calling test's own API context). */
    async session(request: APIRequestContext, body: Record<string, unknown>) {
      const response = await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV", ...body } });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { token: string }).token;
    },
  };
}

/** A LottieStandalone upload of a made-up animation and its binding manifest, as setUpShare takes it. */
export function lottieWithManifest(name: string, lottie: unknown, manifest: unknown) {
  const json = (file: string, value: unknown) => ({ name: file, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(value)) });
  return { kind: "LottieStandalone", name, templateJson: json(`${name.toLowerCase().replace(/\W+/g, "-")}.json`, lottie), manifestJson: json("manifest.json", manifest) };
}

export const lightsUpload = {
  kind: "LottieStandalone",
  name: "Lights",
  templateJson: { name: "lights.json", mimeType: "application/json", buffer: fixture("lottie/lights.json") },
};

/** Every analytics event and consent beacon the host page sends, with the ingest's answers. */
export async function recordAnalytics(page: Page) {
  const events: WireEvent[] = [];
  const statuses: number[] = [];
  const beaconStatuses: number[] = [];
  const origins: (string | null)[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== "/analytics/v1/events") return;
    events.push(...(request.postDataJSON() as { events: WireEvent[] }).events);
    // A batch sent as the test ends (the page closing) has no headers left to read: it is not one the test looks at.
    request.allHeaders().then(
      (headers) => origins.push(headers["origin"] ?? null),
      () => {},
    );
  });
  page.on("response", (response) => {
    if (response.request().method() !== "POST") return;
    const path = new URL(response.url()).pathname;
    if (path === "/analytics/v1/events") statuses.push(response.status());
    if (path === "/analytics/v1/consent") beaconStatuses.push(response.status());
  });
  // The browser does not hand a beacon's Blob body to the test's network events, so the page's
  // own sendBeacon is watched (and still sends; beaconStatuses holds the ingest's answers).
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    (window as unknown as { __beacons: unknown[] }).__beacons = sent;
    const original = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      if (data instanceof Blob) void data.text().then((text) => sent.push({ url: String(url), body: JSON.parse(text) as unknown }));
      return original(url, data);
    };
  });
  // The page's own log, in the order the page did things: each analytics message the host
  // received from a player, the moment the tracking bundle ran, and each batch it started to
  // send. The SDK sends a released event in the same task (a microtask), so "received, and no
  // batch started" read afterwards means the event was held: no waiting for a request that
  // might still come.
  await page.addInitScript(() => {
    const log: unknown[] = [];
    (window as unknown as { __analyticsLog: unknown[] }).__analyticsLog = log;
    addEventListener("message", (event) => {
      const data = event.data as { type?: unknown; eventType?: unknown } | null;
      if (data?.type === "PLAYER_ANALYTICS_EVENT_V1") log.push({ received: data.eventType });
    });
    document.addEventListener("load", (event) => {
      const src = (event.target as HTMLScriptElement | null)?.src ?? "";
      if (src.endsWith("/player-tracking.global.js")) log.push({ trackingLoaded: true });
    }, true);
    const originalFetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes("/analytics/v1/events")) log.push({ batchSent: true });
      return originalFetch(input, init);
    };
  });
  const pageLog = () => page.evaluate(() => (window as unknown as { __analyticsLog?: Record<string, unknown>[] }).__analyticsLog ?? []);
  /** Waits until the page has run the tracking bundle and its host has received `eventType` from the player; returns the page's log then. */
  const afterReceived = async (eventType: string) => {
    await expect
      .poll(async () => {
        const log = await pageLog();
        return log.some((entry) => entry.trackingLoaded) && log.some((entry) => entry.received === eventType);
      })
      .toBe(true);
    return pageLog();
  };
  const beacons = () =>
    page.evaluate(() => (window as unknown as { __beacons?: { url: string; body: { event: WireEvent } }[] }).__beacons ?? []);
  const types = (playbackId?: number) =>
    events.filter((e) => playbackId === undefined || e.playback_id === playbackId).map((e) => (e.event_type === "video.progressed" ? `progressed ${e.payload.percent}` : e.event_type));
  return { events, beacons, beaconStatuses, statuses, origins, types, pageLog, afterReceived };
}

export const demoCalls = (page: Page) => page.evaluate(() => (window as unknown as { reelbindDemo: { calls: DemoCall[] } }).reelbindDemo.calls);
export const hostCommand = (page: Page, script: string) => page.evaluate(`window.reelbindDemo.player.${script}`);

/** Polls the demo host's calls until one matches; the cap is the config's expect timeout, a hang guard only. */
export async function waitForCall(page: Page, predicate: (call: DemoCall) => boolean) {
  await expect.poll(async () => (await demoCalls(page)).some(predicate)).toBe(true);
}

/**
 * A screenshot of `locator` once its rendering has settled: shots are taken until two in a row
 * are the same (fonts, images and the player's frame painted), as toHaveScreenshot does. The cap
 * only guards a page that never stops changing, and names it.
 */
export async function settledScreenshot(locator: Locator): Promise<Buffer> {
  let previous = await locator.screenshot({ animations: "disabled" });
  for (let shot = 1; shot < 100; shot += 1) {
    const next = await locator.screenshot({ animations: "disabled" });
    if (next.equals(previous)) return next;
    previous = next;
  }
  throw new Error("the element's rendering never settled: 100 screenshots in a row differed");
}
