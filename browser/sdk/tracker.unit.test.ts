import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { validateEvent, validateEventBatch } from "@/lib/ingest/validate-events";
import { randomUuid } from "./enrichment";
import type { RawMessage } from "./tracking-api";
import { analyticsMessage, ingestUrl, newContext, playerOrigin, positionOf, recordingTracker, settle } from "@/testing/sdk-tracker";

// Enrichment, holding until READY, one queue per ingest endpoint, and consent (docs/design.md, Player).

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const playerFrame = { name: "player iframe window" };
const fromPlayer = (data: unknown, source: unknown = playerFrame): RawMessage => ({ data, origin: playerOrigin, source });
const played = (position: number) => analyticsMessage({ payload: { position_ms: position } });

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("tracker – enrichment", () => {
  it("tracker – a player's events become schema-valid wire events with READY's context", async () => {
    const { tracker, requests, sentEvents } = recordingTracker({ referrer: "https://News.Example.com:8080/story?id=1" });
    const context = newContext({ templateVersion: "2.3" });
    tracker.addPlayer(playerFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, context);
    tracker.receive(fromPlayer(analyticsMessage({ eventType: "session.started", playbackId: null, payload: {} })));
    tracker.receive(fromPlayer(played(0)));
    await settle();

    expect(requests).toHaveLength(1);
    expect(validateEventBatch(requests[0]!.batch)).toMatchObject({ ok: true });
    const [started, playedEvent] = sentEvents();
    expect(playedEvent).toEqual({
      event_id: expect.stringMatching(uuidV4),
      event_type: "video.played",
      occurred_at: "2026-11-21T10:00:00.123Z",
      playback_id: 1,
      payload: { position_ms: 0 },
      organization_id: context.organizationId,
      project_id: context.projectId,
      template_id: context.templateId,
      template_version: "2.3",
      session_id: expect.stringMatching(uuidV4),
      consent: { status: "not_required" },
      referrer_host: "news.example.com",
    });
    expect(started!.session_id).toBe(playedEvent!.session_id);
    expect(started!.event_id).not.toBe(playedEvent!.event_id);
  });

  it("tracker – each embed has its own session_id", async () => {
    const { tracker, sentEvents } = recordingTracker();
    const otherFrame = { name: "second player" };
    const context = newContext();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.addPlayer(otherFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, context);
    await tracker.setContext(otherFrame, context);
    tracker.receive(fromPlayer(played(1)));
    tracker.receive(fromPlayer(played(2), otherFrame));
    await settle();
    const [first, second] = sentEvents();
    expect(first!.session_id).not.toBe(second!.session_id);
  });

  it("tracker – a second READY (the player initialized again) keeps the embed's session_id", async () => {
    const { tracker, sentEvents } = recordingTracker();
    const context = newContext();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, context);
    tracker.receive(fromPlayer(played(1)));
    await settle();
    await tracker.setContext(playerFrame, context);
    tracker.receive(fromPlayer(played(2)));
    await settle();
    const [first, second] = sentEvents();
    expect(second!.session_id).toBe(first!.session_id);
  });

  it.each([
    ["no referrer", ""],
    ["a referrer without a host", "about:blank"],
  ])("tracker – %s: referrer_host is left out", async (_name, referrer) => {
    const { tracker, sentEvents } = recordingTracker({ referrer });
    tracker.addPlayer(playerFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, newContext());
    tracker.receive(fromPlayer(played(0)));
    await settle();
    expect(Object.keys(sentEvents()[0]!)).not.toContain("referrer_host");
  });

  it("tracker – viewerId: viewer_hash is the lowercase hex SHA-256 of `${project_id}:${viewerId}`", async () => {
    const { tracker, requests, sentEvents } = recordingTracker();
    const context = newContext();
    tracker.addPlayer(playerFrame, playerOrigin, { viewerId: "crm-4711" });
    await tracker.setContext(playerFrame, context);
    tracker.receive(fromPlayer(played(0)));
    await settle();
    const expected = createHash("sha256").update(`${context.projectId}:crm-4711`).digest("hex");
    expect(sentEvents()[0]!.viewer_hash).toBe(expected);
    expect(validateEventBatch(requests[0]!.batch)).toMatchObject({ ok: true });
  });

  it("tracker – no viewerId: viewer_hash is left out", async () => {
    const { tracker, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, newContext());
    tracker.receive(fromPlayer(played(0)));
    await settle();
    expect(Object.keys(sentEvents()[0]!)).not.toContain("viewer_hash");
  });

  it("tracker – viewerId without crypto.subtle (no secure context): viewer_hash is left out, the event still goes", async () => {
    vi.stubGlobal("crypto", { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    const { tracker, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, { viewerId: "crm-4711" });
    await tracker.setContext(playerFrame, newContext());
    tracker.receive(fromPlayer(played(0)));
    await settle();
    expect(sentEvents()).toHaveLength(1);
    expect(Object.keys(sentEvents()[0]!)).not.toContain("viewer_hash");
  });

  it("randomUuid – without crypto.randomUUID (http page) builds lowercase v4 UUIDs from getRandomValues", () => {
    const getRandomValues = vi.fn(globalThis.crypto.getRandomValues.bind(globalThis.crypto));
    vi.stubGlobal("crypto", { getRandomValues });
    const ids = Array.from({ length: 200 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(uuidV4);
    expect(new Set(ids).size).toBe(200);
    expect(getRandomValues).toHaveBeenCalledTimes(200);
  });
});

describe("tracker – before READY", () => {
  it("tracker – events before READY's context are held, then sent in order in one POST", async () => {
    const { tracker, requests, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.receive(fromPlayer(analyticsMessage({ eventType: "session.started", playbackId: null, payload: {} })));
    tracker.receive(fromPlayer(played(0)));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(0);

    const context = newContext();
    await tracker.setContext(playerFrame, context);
    await settle();
    expect(requests).toHaveLength(1);
    expect(sentEvents().map((event) => [event.event_type, event.project_id])).toEqual([
      ["session.started", context.projectId],
      ["video.played", context.projectId],
    ]);
  });

  it("tracker – events arriving while the viewer hash is computed wait for it", async () => {
    const { tracker, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, { viewerId: "crm-4711" });
    tracker.receive(fromPlayer(played(1)));
    const ready = tracker.setContext(playerFrame, newContext());
    tracker.receive(fromPlayer(played(2)));
    await ready;
    await settle();
    expect(sentEvents().map((event) => [positionOf(event), typeof event.viewer_hash])).toEqual([
      [1, "string"],
      [2, "string"],
    ]);
  });

  it("tracker – messages for a window that was never added are dropped", async () => {
    const { tracker, requests } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, newContext());
    tracker.receive(fromPlayer(played(0), { name: "unknown window" }));
    await settle();
    expect(requests).toEqual([]);
  });
});

describe("tracker – queues", () => {
  it("tracker – players sharing an ingest endpoint and token share one queue: one POST", async () => {
    const { tracker, requests } = recordingTracker();
    const otherFrame = { name: "second player" };
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.addPlayer(otherFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, newContext());
    await tracker.setContext(otherFrame, newContext());
    tracker.receive(fromPlayer(played(1)));
    tracker.receive(fromPlayer(played(2), otherFrame));
    await settle();
    expect(requests.map((request) => request.batch.events.length)).toEqual([2]);
  });

  it("tracker – POSTs go to {ingest.url}/analytics/v1/events with the context's token, one queue per token", async () => {
    const { tracker, requests } = recordingTracker();
    const otherFrame = { name: "second player" };
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.addPlayer(otherFrame, playerOrigin, {});
    await tracker.setContext(playerFrame, newContext({ ingest: { url: `${ingestUrl}/`, token: "token-a" } }));
    await tracker.setContext(otherFrame, newContext({ ingest: { url: ingestUrl, token: "token-b" } }));
    tracker.receive(fromPlayer(played(1)));
    tracker.receive(fromPlayer(played(2), otherFrame));
    await settle();
    expect(requests.map(({ url, token, batch }) => [url, token, batch.events.length])).toEqual([
      [`${ingestUrl}/analytics/v1/events`, "token-a", 1],
      [`${ingestUrl}/analytics/v1/events`, "token-b", 1],
    ]);
  });
});

describe("tracker – consent", () => {
  async function requiredPlayer(options: { viewerId?: string } = {}) {
    const recording = recordingTracker();
    const context = newContext({ consentMode: "required" });
    recording.tracker.addPlayer(playerFrame, playerOrigin, options);
    await recording.tracker.setContext(playerFrame, context);
    return { ...recording, context };
  }

  it("tracker – mode required, undecided: events are held, nothing leaves", async () => {
    const { tracker, requests, beacons } = await requiredPlayer();
    tracker.receive(fromPlayer(played(1)));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests).toEqual([]);
    expect(beacons).toEqual([]);
  });

  it("tracker – mode required, undecided: at most 500 events are held", async () => {
    const { tracker, sentEvents } = await requiredPlayer();
    for (let position = 1; position <= 501; position++) tracker.receive(fromPlayer(played(position)));
    tracker.setConsent(playerFrame, "granted", "banner");
    await settle();
    const positions = sentEvents().map((event) => positionOf(event));
    expect(positions).toHaveLength(500);
    expect(positions.at(-1)).toBe(500);
  });

  it("tracker – mode required, granted: one consent.accepted beacon, held and later events go out with consent granted", async () => {
    const { tracker, requests, beacons, sentEvents, context } = await requiredPlayer();
    tracker.receive(fromPlayer(played(1)));
    tracker.receive(fromPlayer(played(2)));
    await settle();
    tracker.setConsent(playerFrame, "granted", "api");
    await settle();
    tracker.receive(fromPlayer(played(3)));
    await settle();

    expect(beacons).toHaveLength(1);
    const [beacon] = beacons;
    expect(beacon!.url).toBe(`${ingestUrl}/analytics/v1/consent`);
    expect(beacon!.body.token).toBe("ingest-token");
    expect(beacon!.body.event).toMatchObject({
      event_type: "consent.accepted",
      playback_id: null,
      payload: { source: "api" },
      consent: { status: "granted" },
      project_id: context.projectId,
      occurred_at: new Date().toISOString(),
    });
    expect(validateEvent(beacon!.body.event)).toMatchObject({ ok: true });

    expect(requests.map((request) => request.batch.events.length)).toEqual([2, 1]);
    expect(sentEvents().map((event) => [positionOf(event), event.consent.status])).toEqual([
      [1, "granted"],
      [2, "granted"],
      [3, "granted"],
    ]);
    expect(validateEventBatch(requests[0]!.batch)).toMatchObject({ ok: true });
  });

  it("tracker – mode required, denied: one consent.declined beacon, held and later events are dropped", async () => {
    const { tracker, requests, beacons } = await requiredPlayer();
    tracker.receive(fromPlayer(played(1)));
    tracker.setConsent(playerFrame, "denied", "api");
    tracker.receive(fromPlayer(played(2)));
    await vi.advanceTimersByTimeAsync(60_000);

    expect(requests).toEqual([]);
    expect(beacons.map((beacon) => [beacon.body.event.event_type, beacon.body.event.consent, beacon.body.event.payload])).toEqual([
      ["consent.declined", { status: "denied" }, { source: "api" }],
    ]);
    expect(validateEvent(beacons[0]!.body.event)).toMatchObject({ ok: true });
  });

  it("tracker – mode required, viewerId: the beacon's event carries the viewer_hash", async () => {
    const { tracker, beacons } = await requiredPlayer({ viewerId: "crm-4711" });
    tracker.setConsent(playerFrame, "granted", "api");
    expect(beacons[0]!.body.event.viewer_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(["banner", "host", "api"] as const)("tracker – the decision's source %s is the beacon's payload.source", async (source) => {
    const { tracker, beacons } = await requiredPlayer();
    tracker.setConsent(playerFrame, "granted", source);
    expect(beacons.map((beacon) => beacon.body.event.payload)).toEqual([{ source }]);
  });

  it("tracker – a decision before READY (the embed option, source host) is applied once the mode is known", async () => {
    const { tracker, requests, beacons, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.setConsent(playerFrame, "granted", "host");
    tracker.receive(fromPlayer(played(1)));
    await settle();
    expect(beacons).toEqual([]);
    expect(requests).toEqual([]);

    await tracker.setContext(playerFrame, newContext({ consentMode: "required" }));
    await settle();
    expect(beacons.map((beacon) => [beacon.body.event.event_type, beacon.body.event.payload])).toEqual([
      ["consent.accepted", { source: "host" }],
    ]);
    expect(sentEvents().map((event) => event.consent)).toEqual([{ status: "granted" }]);
  });

  it("tracker – a denial before READY drops the events held for READY", async () => {
    const { tracker, requests, beacons } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.receive(fromPlayer(played(1)));
    tracker.setConsent(playerFrame, "denied", "host");
    await tracker.setContext(playerFrame, newContext({ consentMode: "required" }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests).toEqual([]);
    expect(beacons.map((beacon) => beacon.body.event.event_type)).toEqual(["consent.declined"]);
  });

  it("tracker – denied, then granted: events from before the grant stay dropped", async () => {
    const { tracker, sentEvents } = await requiredPlayer();
    tracker.setConsent(playerFrame, "denied", "banner");
    tracker.receive(fromPlayer(played(1)));
    tracker.setConsent(playerFrame, "granted", "banner");
    tracker.receive(fromPlayer(played(2)));
    await settle();
    expect(sentEvents().map((event) => positionOf(event))).toEqual([2]);
  });

  it("tracker – the same decision twice sends one beacon", async () => {
    const { tracker, beacons } = await requiredPlayer();
    tracker.setConsent(playerFrame, "granted", "banner");
    tracker.setConsent(playerFrame, "granted", "api");
    expect(beacons).toHaveLength(1);
  });

  it("tracker – granted, then denied: a second beacon, and later events are dropped", async () => {
    const { tracker, beacons, sentEvents } = await requiredPlayer();
    tracker.setConsent(playerFrame, "granted", "banner");
    tracker.receive(fromPlayer(played(1)));
    await settle();
    tracker.setConsent(playerFrame, "denied", "banner");
    tracker.receive(fromPlayer(played(2)));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(beacons.map((beacon) => beacon.body.event.event_type)).toEqual(["consent.accepted", "consent.declined"]);
    expect(sentEvents().map((event) => positionOf(event))).toEqual([1]);
  });

  it.each(["granted", "denied"] as const)("tracker – mode not_required: setConsent(%s) sends no beacon and changes nothing", async (decision) => {
    const { tracker, beacons, sentEvents } = recordingTracker();
    tracker.addPlayer(playerFrame, playerOrigin, {});
    tracker.setConsent(playerFrame, decision, "host");
    await tracker.setContext(playerFrame, newContext({ consentMode: "not_required" }));
    tracker.setConsent(playerFrame, decision, "api");
    tracker.receive(fromPlayer(played(1)));
    await settle();
    expect(beacons).toEqual([]);
    expect(sentEvents().map((event) => event.consent)).toEqual([{ status: "not_required" }]);
  });
});
