import { randomUUID } from "node:crypto";
import { expect, type Frame, type Page } from "@playwright/test";
import type { ControlMessage, PlayerContext } from "@/shared/embed-protocol";
import type { EmbedOptions, PlayerHandle } from "@/browser/sdk/player-embed";
import type { ReelbindGlobal } from "@/browser/sdk/player-embed";

// The real SDK on a customer page, with a tiny harness standing in for the player iframe: the
// test makes the "player" post exactly the analytics messages it wants. Used by the SDK bridge
// spec (every origin synthetic) and the reliability suite (SDK and ingest of the built app).

export type AnalyticsFields = { type?: unknown; eventType?: unknown; occurredAt?: unknown; playbackId?: unknown; payload?: unknown };

/** What the harness at {playerOrigin}/embed/{slug} does. */
export type HarnessPlayer = {
  context: PlayerContext;
  /** Analytics messages posted right after INIT, before READY. */
  beforeReady?: AnalyticsFields[];
  /** Posts video.incomplete on pagehide, as the real player does when removed mid-playback. */
  incompleteOnPagehide?: boolean;
};

export type HostWindow = Window & {
  Reelbind: ReelbindGlobal;
  players: PlayerHandle[];
  readyMessages: ControlMessage[];
  receivedMessages: unknown[];
};

/** A well-formed analytics message; `overrides` replace fields, `without` removes them. */
export function analyticsMessage(overrides: AnalyticsFields = {}, without: (keyof AnalyticsFields)[] = []): AnalyticsFields {
  const message: AnalyticsFields = {
    type: "PLAYER_ANALYTICS_EVENT_V1",
    eventType: "video.played",
    occurredAt: new Date().toISOString(),
    playbackId: 1,
    payload: { position_ms: 1_000 },
    ...overrides,
  };
  for (const key of without) delete message[key];
  return message;
}

/** The customer page: the SDK bootstrap from `sdkOrigin`, and a record of every message it receives. */
export function hostPage(sdkOrigin: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer page</title></head>
<body>
<script>
  window.players = [];
  window.readyMessages = [];
  window.receivedMessages = [];
  addEventListener("message", (event) => window.receivedMessages.push(event.data));
</script>
<script src="${sdkOrigin}/sdk/player-embed.global.js"></script>
</body></html>`;
}

export function harnessPage(player: HarnessPlayer) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Player harness</title></head>
<body>
<script>
  const player = ${JSON.stringify(player)};
  let parentOrigin = null;
  window.commands = [];
  window.postToHost = (message) => parent.postMessage(message, parentOrigin);
  addEventListener("message", (event) => {
    if (event.source !== parent) return;
    window.commands.push({ origin: event.origin, data: event.data });
    if (event.data.type !== "INIT" || parentOrigin) return;
    parentOrigin = event.origin;
    for (const message of player.beforeReady || []) postToHost(message);
    postToHost({ v: 1, type: "READY", durationMs: 10000, width: 1280, height: 720, context: player.context });
  });
  addEventListener("pagehide", () => {
    if (!player.incompleteOnPagehide) return;
    postToHost({ type: "PLAYER_ANALYTICS_EVENT_V1", eventType: "video.incomplete", occurredAt: new Date().toISOString(),
      playbackId: 1, payload: { position_ms: 3000, percent: 30 } });
  });
</script>
</body></html>`;
}

/**
 * Embeds the share `slug` of `playerOrigin` in a new slot and waits for its READY; returns the
 * handle's index and the player frame.
 */
export async function embedPlayer(page: Page, playerOrigin: string, slug: string, options: Pick<EmbedOptions, "consent" | "viewerId"> = {}) {
  const readyBefore = await page.evaluate(() => (window as unknown as HostWindow).readyMessages.length);
  const index = await page.evaluate(
    ({ slug, options }) => {
      const host = window as unknown as HostWindow;
      const slot = document.createElement("div");
      slot.style.cssText = "width:320px;height:180px";
      document.body.append(slot);
      const player = host.Reelbind.embed(slot, { share: slug, ...options, onReady: (message: ControlMessage) => host.readyMessages.push(message) });
      return host.players.push(player) - 1;
    },
    { slug, options },
  );
  await page.waitForFunction((count) => (window as unknown as HostWindow).readyMessages.length > count, readyBefore);
  const frame = page.frames().find((candidate) => candidate.url() === `${playerOrigin}/embed/${slug}`);
  expect(frame, `the player iframe for ${slug}`).toBeDefined();
  return { index, frame: frame! };
}

/** Posts from a frame to the host page and waits until the host page has seen every message. */
export async function postFrom(page: Page, frame: Frame, messages: AnalyticsFields[]) {
  const hostOrigin = new URL(page.url()).origin;
  const markers = messages.map(() => randomUUID());
  const marked = messages.map((message, i) => ({ ...message, marker: markers[i] }));
  await frame.evaluate(
    ({ marked, hostOrigin }) => {
      for (const message of marked) parent.postMessage(message, hostOrigin);
    },
    { marked, hostOrigin },
  );
  await page.waitForFunction(
    (markers) => {
      const seen = new Set((window as unknown as HostWindow).receivedMessages.map((data) => (data as { marker?: string } | null)?.marker));
      return markers.every((marker) => seen.has(marker));
    },
    markers,
  );
}
