import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RawMessage } from "./tracking-api";
import { analyticsMessage, newContext, playerOrigin, recordingTracker, settle } from "@/testing/sdk-tracker";

// The analytics bridge, spec §4.5 rules 3 and 4, through the tracker: a message that fails a
// check must not reach the queue, so no request leaves.

const playerFrame = { name: "player iframe window" };
const siblingFrame = { name: "another iframe on the player origin" };

async function trackerWithReadyPlayer() {
  const recording = recordingTracker();
  recording.tracker.addPlayer(playerFrame, playerOrigin, {});
  await recording.tracker.setContext(playerFrame, newContext());
  return recording;
}

const fromPlayer = (data: unknown): RawMessage => ({ data, origin: playerOrigin, source: playerFrame });

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("analytics bridge", () => {
  it("bridge – a well-formed message from the player iframe reaches the queue (control case)", async () => {
    const { tracker, requests, sentEvents } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(analyticsMessage()));
    await settle();
    expect(requests).toHaveLength(1);
    expect(sentEvents()).toMatchObject([{ event_type: "video.played", playback_id: 1, payload: { position_ms: 0 } }]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["session.started with an empty payload", { eventType: "session.started", playbackId: null, payload: {} }],
    ["playbackId null", { playbackId: null }],
    ["playbackId 1", { playbackId: 1 }],
    ["playbackId 2147483647", { playbackId: 2147483647 }],
    ["a payload without a prototype", { payload: Object.assign(Object.create(null), { position_ms: 5 }) }],
  ])("bridge – accepts %s", async (_name, overrides) => {
    const { tracker, sentEvents } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(analyticsMessage(overrides)));
    await settle();
    expect(sentEvents()).toHaveLength(1);
  });

  it("bridge – keeps only the envelope's fields: extra properties never reach the wire", async () => {
    const { tracker, sentEvents } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(analyticsMessage({ organizationId: "forged", event_id: "forged", consent: "granted" })));
    await settle();
    const [event] = sentEvents();
    expect(event!.event_id).not.toBe("forged");
    expect(event!.consent).toEqual({ status: "not_required" });
    expect(Object.keys(event!)).not.toContain("organizationId");
  });

  it.each<[string, RawMessage]>([
    ["from another window on the player origin", { data: analyticsMessage(), origin: playerOrigin, source: siblingFrame }],
    ["from no window (source null)", { data: analyticsMessage(), origin: playerOrigin, source: null }],
    ["from another origin", { data: analyticsMessage(), origin: "https://evil.example", source: playerFrame }],
    ["from the player's host over http", { data: analyticsMessage(), origin: "http://player.example", source: playerFrame }],
    ["from the player's host on another port", { data: analyticsMessage(), origin: "https://player.example:8443", source: playerFrame }],
    ["from the opaque origin", { data: analyticsMessage(), origin: "null", source: playerFrame }],
  ])("bridge – drops a message %s", async (_name, raw) => {
    const { tracker, requests } = await trackerWithReadyPlayer();
    tracker.receive(raw);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["type PLAYER_ANALYTICS_EVENT_V2", analyticsMessage({ type: "PLAYER_ANALYTICS_EVENT_V2" })],
    ["type in lowercase", analyticsMessage({ type: "player_analytics_event_v1" })],
    ["no type", analyticsMessage({ type: undefined })],
    ["eventType unknown", analyticsMessage({ eventType: "video.rewound" })],
    ["eventType missing", analyticsMessage({ eventType: undefined })],
    ["eventType in another case", analyticsMessage({ eventType: "Video.Played" })],
    ["eventType consent.accepted (SDK-only)", analyticsMessage({ eventType: "consent.accepted", playbackId: null, payload: { source: "api" } })],
    ["eventType consent.declined (SDK-only)", analyticsMessage({ eventType: "consent.declined", playbackId: null, payload: { source: "api" } })],
    ["playbackId 0", analyticsMessage({ playbackId: 0 })],
    ["playbackId -1", analyticsMessage({ playbackId: -1 })],
    ["playbackId 1.5", analyticsMessage({ playbackId: 1.5 })],
    ['playbackId "1"', analyticsMessage({ playbackId: "1" })],
    ["playbackId NaN", analyticsMessage({ playbackId: Number.NaN })],
    ["playbackId Infinity", analyticsMessage({ playbackId: Number.POSITIVE_INFINITY })],
    ["playbackId missing", analyticsMessage({ playbackId: undefined })],
    ['occurredAt ""', analyticsMessage({ occurredAt: "" })],
    ["occurredAt missing", analyticsMessage({ occurredAt: undefined })],
    ["occurredAt a number", analyticsMessage({ occurredAt: 1_763_719_200_123 })],
    ["payload {} for video.played", analyticsMessage({ payload: {} })],
    ["payload {} for cta.clicked", analyticsMessage({ eventType: "cta.clicked", payload: {} })],
    ["payload {} for video.incomplete", analyticsMessage({ eventType: "video.incomplete", payload: {} })],
    ["payload an array", analyticsMessage({ payload: [{ position_ms: 0 }] })],
    ["payload an empty array for session.started", analyticsMessage({ eventType: "session.started", playbackId: null, payload: [] })],
    ["payload null", analyticsMessage({ payload: null })],
    ["payload a string", analyticsMessage({ payload: "position_ms=0" })],
    ["payload a Date", analyticsMessage({ payload: new Date() })],
    ["payload missing", analyticsMessage({ payload: undefined })],
    ["data null", null],
    ["data a string", "PLAYER_ANALYTICS_EVENT_V1"],
    ["data an array", [analyticsMessage()]],
  ])("bridge – drops a message with %s", async (_name, data) => {
    const { tracker, requests } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(data));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toEqual([]);
  });

  it("bridge – a dropped message leaves no trace: the next good one goes out alone", async () => {
    const { tracker, sentEvents } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(analyticsMessage({ playbackId: 0 })));
    tracker.receive({ data: analyticsMessage({ payload: { position_ms: 1 } }), origin: playerOrigin, source: siblingFrame });
    tracker.receive(fromPlayer(analyticsMessage({ payload: { position_ms: 2 } })));
    await settle();
    expect(sentEvents().map((event) => event.payload)).toEqual([{ position_ms: 2 }]);
  });

  it("bridge – drops messages silently: nothing on the console", async () => {
    const log = vi.spyOn(globalThis.console, "log");
    const warn = vi.spyOn(globalThis.console, "warn");
    const error = vi.spyOn(globalThis.console, "error");
    const { tracker } = await trackerWithReadyPlayer();
    tracker.receive(fromPlayer(analyticsMessage({ playbackId: -1 })));
    tracker.receive({ data: analyticsMessage(), origin: "https://evil.example", source: playerFrame });
    await settle();
    expect([...log.mock.calls, ...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    vi.restoreAllMocks();
  });
});
