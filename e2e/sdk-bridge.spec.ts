import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import type { ConsentMode, ControlMessage, PlayerContext } from "@/shared/embed-protocol";
import type { EmbedOptions } from "@/browser/sdk/player-embed";
import {
  analyticsMessage,
  embedPlayer as embedHarness,
  harnessPage,
  hostPage,
  postFrom,
  type AnalyticsFields,
  type HarnessPlayer,
  type HostWindow,
} from "./sdk-harness";

// The SDK's analytics bridge in Chromium, with the built bundles. Every origin is synthetic and
// served by page.route: the host page, the player (a tiny harness standing in for the real
// player iframe, which also serves the SDK), a third origin, and ingest, whose requests are
// recorded. The host page is plain http on a non-localhost name: no secure context, as on many
// customer sites (no crypto.randomUUID, no crypto.subtle).
//
// "Nothing was sent" is proven with a sentinel: a well-formed message posted after the one under
// test. Had the SDK accepted the earlier message, it would be in the same POST or an earlier one.

const hostOrigin = "http://host.reelbind.test";
const playerOrigin = "http://player.reelbind.test";
const thirdOrigin = "http://third.reelbind.test";
const ingestOrigin = "http://ingest.reelbind.test";
const ingestToken = "e2e-ingest-token";
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type WireEvent = {
  event_id: string;
  event_type: string;
  occurred_at: string;
  playback_id: number | null;
  payload: Record<string, unknown>;
  organization_id: string;
  project_id: string;
  template_id: string;
  template_version: string;
  session_id: string;
  consent: { status: string };
};

/** The sentinel: a valid event told apart by its position. */
const sentinel = () => analyticsMessage({ eventType: "video.paused", payload: { position_ms: 4_242 } });

function playerContext(consentMode: ConsentMode = "not_required"): PlayerContext {
  return {
    organizationId: randomUUID(),
    projectId: randomUUID(),
    templateId: randomUUID(),
    templateVersion: "1.0",
    consentMode,
    ingest: { url: ingestOrigin, token: ingestToken },
  };
}

const otherWindowPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other window</title></head><body></body></html>`;

type Ingest = { posts: { authorization: string | undefined; events: WireEvent[] }[]; beacons: { token: string; event: WireEvent }[] };

/**
 * Routes the synthetic origins for `page` and opens the host page. `players` maps a share slug to
 * its harness; `trackingGate`, when given, holds back the tracking bundle until it resolves.
 */
async function openHostPage(page: Page, players: Record<string, HarnessPlayer>, trackingGate?: Promise<void>): Promise<Ingest> {
  const ingest: Ingest = { posts: [], beacons: [] };
  const html = (body: string) => ({ status: 200, contentType: "text/html; charset=utf-8", body });

  await page.route(`${hostOrigin}/**`, (route) => route.fulfill(html(hostPage(playerOrigin))));
  await page.route(`${thirdOrigin}/**`, (route) => route.fulfill(html(otherWindowPage)));
  await page.route(`${playerOrigin}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.startsWith("/sdk/")) {
      if (pathname.endsWith("player-tracking.global.js")) await trackingGate;
      return route.fulfill({ status: 200, contentType: "text/javascript", body: readFileSync(`public${pathname}`) });
    }
    const player = players[decodeURIComponent(pathname.replace(/^\/embed\//, ""))];
    return route.fulfill(player ? html(harnessPage(player)) : html(otherWindowPage));
  });
  await page.route(`${ingestOrigin}/**`, (route) => {
    const request = route.request();
    const { pathname } = new URL(request.url());
    if (pathname === "/analytics/v1/events") {
      const body = request.postDataJSON() as { events: WireEvent[] };
      ingest.posts.push({ authorization: request.headers()["authorization"], events: body.events });
    } else if (pathname === "/analytics/v1/consent") {
      ingest.beacons.push(JSON.parse(request.postData() ?? "null") as Ingest["beacons"][number]);
    }
    return route.fulfill({
      status: 202,
      headers: { "Access-Control-Allow-Origin": hostOrigin },
      contentType: "application/json",
      body: JSON.stringify({ accepted: 1, duplicates: 0, quarantined: 0 }),
    });
  });

  await page.goto(`${hostOrigin}/`);
  return ingest;
}

/** Adds an iframe on `origin` to the host page and returns its frame. */
async function addOtherWindow(page: Page, origin: string) {
  const element = await page.evaluateHandle((src) => {
    const iframe = document.createElement("iframe");
    iframe.src = src;
    document.body.append(iframe);
    return iframe;
  }, `${origin}/other-window`);
  const frame = await element.asElement()!.contentFrame();
  await frame!.waitForLoadState();
  return frame!;
}

const embedPlayer = (page: Page, slug: string, options: Pick<EmbedOptions, "consent" | "viewerId"> = {}) => embedHarness(page, playerOrigin, slug, options);

const postedEvents = (ingest: Ingest) => ingest.posts.flatMap((post) => post.events);

test.beforeAll(async () => {
  // scripts/*.mjs carry no type declarations: the import is typed here.
  const buildScript = "../scripts/build-browser.mjs";
  const { buildBrowserBundles } = (await import(buildScript)) as { buildBrowserBundles(options?: { quiet?: boolean }): Promise<void> };
  await buildBrowserBundles({ quiet: true });
});

test("SDK bridge – a well-formed message from the player iframe: exactly one POST with the enriched event", async ({ page }) => {
  const context = playerContext();
  const ingest = await openHostPage(page, { demo: { context } });
  const { frame } = await embedPlayer(page, "demo");

  const message = analyticsMessage({ eventType: "video.progressed", playbackId: 2, payload: { position_ms: 2_500, percent: 25 } });
  await postFrom(page, frame, [message]);
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(ingest.posts[0]!.authorization).toBe(`Bearer ${ingestToken}`);
  expect(ingest.posts[0]!.events).toEqual([
    {
      event_id: expect.stringMatching(uuidV4),
      event_type: "video.progressed",
      occurred_at: message.occurredAt,
      playback_id: 2,
      payload: { position_ms: 2_500, percent: 25 },
      organization_id: context.organizationId,
      project_id: context.projectId,
      template_id: context.templateId,
      template_version: "1.0",
      session_id: expect.stringMatching(uuidV4),
      consent: { status: "not_required" },
    },
  ]);

  await postFrom(page, frame, [sentinel()]);
  await expect.poll(() => ingest.posts.length).toBe(2);
  expect(ingest.posts[1]!.events.map((event) => event.payload)).toEqual([{ position_ms: 4_242 }]);
});

for (const [from, origin] of [
  ["a sibling iframe on the player origin", playerOrigin],
  ["an iframe on a third origin", thirdOrigin],
] as const) {
  test(`SDK bridge – a well-formed message from ${from}: no POST`, async ({ page }) => {
    const ingest = await openHostPage(page, { demo: { context: playerContext() } });
    const { frame } = await embedPlayer(page, "demo");
    const other = await addOtherWindow(page, origin);

    await postFrom(page, other, [analyticsMessage()]);
    await postFrom(page, frame, [sentinel()]);
    await expect.poll(() => ingest.posts.length).toBe(1);
    expect(postedEvents(ingest).map((event) => event.payload)).toEqual([{ position_ms: 4_242 }]);
  });
}

test("SDK bridge – a well-formed message from the player's iframe after it navigated to a third origin: no POST", async ({ page }) => {
  const ingest = await openHostPage(page, { demo: { context: playerContext() }, other: { context: playerContext() } });
  const navigated = await embedPlayer(page, "demo");
  const other = await embedPlayer(page, "other");
  // Same window object as the SDK captured, other origin: only the origin check can stop it.
  await navigated.frame.goto(`${thirdOrigin}/other-window`);

  await postFrom(page, navigated.frame, [analyticsMessage()]);
  await postFrom(page, other.frame, [sentinel()]);
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(postedEvents(ingest).map((event) => event.payload)).toEqual([{ position_ms: 4_242 }]);
});

const invalidMessages: [string, AnalyticsFields][] = [
  ["type PLAYER_ANALYTICS_EVENT_V2", analyticsMessage({ type: "PLAYER_ANALYTICS_EVENT_V2" })],
  ["an unknown eventType", analyticsMessage({ eventType: "video.rewound" })],
  ["eventType consent.accepted (SDK-only)", analyticsMessage({ eventType: "consent.accepted", playbackId: null, payload: { source: "api" } })],
  ["playbackId 0", analyticsMessage({ playbackId: 0 })],
  ["playbackId -1", analyticsMessage({ playbackId: -1 })],
  ["playbackId 1.5", analyticsMessage({ playbackId: 1.5 })],
  ['playbackId "1"', analyticsMessage({ playbackId: "1" })],
  ['occurredAt ""', analyticsMessage({ occurredAt: "" })],
  ["occurredAt missing", analyticsMessage({}, ["occurredAt"])],
  ["payload {} for video.played", analyticsMessage({ payload: {} })],
  ["payload an array", analyticsMessage({ payload: [{ position_ms: 1_000 }] })],
  ["payload null", analyticsMessage({ payload: null })],
];

for (const [name, message] of invalidMessages) {
  test(`SDK bridge – a message from the player with ${name}: no POST`, async ({ page }) => {
    const ingest = await openHostPage(page, { demo: { context: playerContext() } });
    const { frame } = await embedPlayer(page, "demo");

    await postFrom(page, frame, [message, sentinel()]);
    await expect.poll(() => ingest.posts.length).toBe(1);
    expect(postedEvents(ingest).map((event) => event.payload)).toEqual([{ position_ms: 4_242 }]);
  });
}

test("SDK bridge – events the player sends before READY, while the tracking bundle still loads, are not lost", async ({ page }) => {
  let releaseTracking!: () => void;
  const trackingGate = new Promise<void>((resolve) => (releaseTracking = resolve));
  const context = playerContext();
  const beforeReady = [
    analyticsMessage({ eventType: "session.started", playbackId: null, payload: {} }),
    analyticsMessage({ eventType: "autoplay.failed", playbackId: null, payload: { reason: "NotAllowedError" } }),
  ];
  const ingest = await openHostPage(page, { early: { context, beforeReady } }, trackingGate);
  await embedPlayer(page, "early");
  expect(ingest.posts).toEqual([]);

  releaseTracking();
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(ingest.posts[0]!.events.map((event) => [event.event_type, event.project_id, event.payload])).toEqual([
    ["session.started", context.projectId, {}],
    ["autoplay.failed", context.projectId, { reason: "NotAllowedError" }],
  ]);
});

test("SDK bridge – consent required, declined: no POST for that player and one consent.declined beacon", async ({ page }) => {
  const ingest = await openHostPage(page, {
    "consent-required": { context: playerContext("required") },
    demo: { context: playerContext() },
  });
  const required = await embedPlayer(page, "consent-required");
  const other = await embedPlayer(page, "demo");

  await postFrom(page, required.frame, [analyticsMessage({ payload: { position_ms: 1 } })]);
  await page.evaluate((index) => (window as unknown as HostWindow).players[index]!.setConsent("denied"), required.index);
  await expect.poll(() => ingest.beacons.length).toBe(1);
  await postFrom(page, required.frame, [analyticsMessage({ payload: { position_ms: 2 } })]);
  // The other player shares the ingest queue: its sentinel proves nothing of the declined player went out.
  await postFrom(page, other.frame, [sentinel()]);
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(postedEvents(ingest).map((event) => event.payload)).toEqual([{ position_ms: 4_242 }]);

  expect(ingest.beacons).toHaveLength(1);
  expect(ingest.beacons[0]).toMatchObject({
    token: ingestToken,
    event: {
      event_id: expect.stringMatching(uuidV4),
      event_type: "consent.declined",
      playback_id: null,
      payload: { source: "api" },
      consent: { status: "denied" },
    },
  });
});

test("SDK bridge – consent required, granted by the embed option: held events go out with consent granted", async ({ page }) => {
  const ingest = await openHostPage(page, { "consent-required": { context: playerContext("required") } });
  const { frame } = await embedPlayer(page, "consent-required", { consent: "granted" });

  await postFrom(page, frame, [sentinel()]);
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(postedEvents(ingest).map((event) => event.consent)).toEqual([{ status: "granted" }]);
  expect(ingest.beacons.map((beacon) => [beacon.event.event_type, beacon.event.payload])).toEqual([["consent.accepted", { source: "host" }]]);
});

test("SDK bootstrap – INIT on load, commands to the player origin, destroy keeps the player's last event", async ({ page }) => {
  const ingest = await openHostPage(page, { demo: { context: playerContext(), incompleteOnPagehide: true } });
  await page.evaluate(() => {
    const host = window as unknown as HostWindow;
    const slot = document.createElement("div");
    document.body.append(slot);
    const player = host.Reelbind.embed(slot, {
      share: "demo",
      data: { FirstName: "Ada" },
      muted: true,
      onReady: (message: ControlMessage) => host.readyMessages.push(message),
    });
    // Before the iframe has loaded: the SDK holds it until after INIT.
    player.play();
    host.players.push(player);
  });
  await page.waitForFunction(() => (window as unknown as HostWindow).readyMessages.length === 1);
  const frame = page.frames().find((candidate) => candidate.url() === `${playerOrigin}/embed/demo`)!;
  const iframe = page.locator(`iframe[src="${playerOrigin}/embed/demo"]`);
  await expect(iframe).toHaveAttribute("allow", "autoplay; fullscreen");
  await expect(iframe).toHaveAttribute("title", /.+/);

  await page.evaluate(() => {
    const [player] = (window as unknown as HostWindow).players;
    player!.seek(1_500);
    player!.mute(false);
    player!.setData({ FirstName: "Grace" });
    player!.pause();
  });
  await expect
    .poll(() => frame.evaluate(() => (window as unknown as { commands: { data: { type: string } }[] }).commands.length))
    .toBe(6);
  const commands = await frame.evaluate(() => (window as unknown as { commands: { origin: string; data: unknown }[] }).commands);
  expect(commands).toEqual([
    { origin: hostOrigin, data: { v: 1, type: "INIT", data: { FirstName: "Ada" }, muted: true } },
    { origin: hostOrigin, data: { v: 1, type: "PLAY" } },
    { origin: hostOrigin, data: { v: 1, type: "SEEK", positionMs: 1_500 } },
    { origin: hostOrigin, data: { v: 1, type: "MUTE", muted: false } },
    { origin: hostOrigin, data: { v: 1, type: "SET_DATA", data: { FirstName: "Grace" } } },
    { origin: hostOrigin, data: { v: 1, type: "PAUSE" } },
  ]);

  await page.evaluate(() => (window as unknown as HostWindow).players[0]!.destroy());
  await expect(iframe).toHaveCount(0);
  await expect.poll(() => ingest.posts.length).toBe(1);
  expect(postedEvents(ingest).map((event) => event.event_type)).toEqual(["video.incomplete"]);
});
