import { randomUUID } from "node:crypto";
import { vi } from "vitest";
import { analyticsMessageType, type PlayerContext } from "@/shared/embed-protocol";
import type { EventBatch, WireEvent } from "@/shared/events/wire-events";
import { createTracker } from "@/browser/sdk/tracker";

// Shared by the SDK's unit tests: a tracker whose transport records what would leave the page.

export const playerOrigin = "https://player.example";
export const ingestUrl = "https://ingest.example";

export function newContext(overrides: Partial<PlayerContext> = {}): PlayerContext {
  return {
    organizationId: randomUUID(),
    projectId: randomUUID(),
    templateId: randomUUID(),
    templateVersion: "1.0",
    consentMode: "not_required",
    ingest: { url: ingestUrl, token: "ingest-token" },
    ...overrides,
  };
}

/** A well-formed analytics message as the player posts it; `overrides` replace fields (undefined deletes one). */
export function analyticsMessage(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const message: Record<string, unknown> = {
    type: analyticsMessageType,
    eventType: "video.played",
    occurredAt: "2026-11-21T10:00:00.123Z",
    playbackId: 1,
    payload: { position_ms: 0 },
    ...overrides,
  };
  for (const key of Object.keys(message)) if (message[key] === undefined) delete message[key];
  return message;
}

export type SentRequest = { url: string; token: string; batch: EventBatch };
export type SentBeacon = { url: string; body: { token: string; event: WireEvent } };

/** The payload's position_ms: what most test events are told apart by. */
export const positionOf = (event: WireEvent) => (event.payload as { position_ms?: number }).position_ms;

/** Runs every pending microtask and zero-delay timer (fake timers are on in the SDK tests). */
export const settle = () => vi.advanceTimersByTimeAsync(0);

/** A tracker whose POSTs answer 202 and whose requests and beacons are recorded. */
export function recordingTracker({ referrer = "" } = {}) {
  const requests: SentRequest[] = [];
  const beacons: SentBeacon[] = [];
  const tracker = createTracker({
    send: async ({ url, token, body }) => {
      requests.push({ url, token, batch: JSON.parse(body) as EventBatch });
      return 202;
    },
    beacon: (url, body) => {
      beacons.push({ url, body: JSON.parse(body) as SentBeacon["body"] });
    },
    referrer,
  });
  const sentEvents = () => requests.flatMap((request) => request.batch.events);
  return { tracker, requests, beacons, sentEvents };
}
