import { describe, expect, it } from "vitest";
import type { EventPayloads, WireEvent } from "@/shared/events/wire-events";
import eventSchema from "./event-schema-v1.json";
import { eventBatchLimits, eventTypes, validateEvent, validateEventBatch, type EventType } from "./validate-events";
import { payloads, wireEvent as validEvent } from "@/testing/ingest";


const tenant = { organizationId: "5f0c3b8a-1d2e-4c6f-8a9b-0e1d2c3b4a59", projectId: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d" };

/** A valid event with fixed ids, so error messages and snapshots are stable. */
function wireEvent<T extends EventType>(eventType: T, payload: EventPayloads[T] = payloads[eventType]): WireEvent<T> {
  return validEvent(tenant, eventType, {
    event_id: "0b6f2c0e-5d1a-4f7e-9a53-3c2d8e4f1a90",
    session_id: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
    payload,
  });
}

type Json = Record<string, unknown>;

/** A batch of three played events whose third (index 2) is changed by the test. */
function batchWith(change: (event: Json) => void): Json {
  const events: Json[] = [wireEvent("video.played"), wireEvent("video.paused"), wireEvent("video.played")];
  change(events[2]!);
  return { sent_at: "2026-11-21T10:00:01.000Z", events };
}

const set = (field: string, value: unknown) => (event: Json) => void (event[field] = value);
const drop = (field: string) => (event: Json) => void delete event[field];
const retype = (eventType: EventType, payload: unknown) => (event: Json) => void Object.assign(event, { event_type: eventType, payload });

describe("validateEventBatch – valid events", () => {
  it.each(eventTypes)("%s with its payload passes", (eventType) => {
    const batch = { sent_at: "2026-11-21T10:00:01.000Z", events: [wireEvent(eventType)] };
    expect(validateEventBatch(batch)).toEqual({ ok: true, batch });
  });

  it.each<[string, (event: Json) => void]>([
    ["playback_id null on a video event", set("playback_id", null)],
    ["the largest playback_id", set("playback_id", 2_147_483_647)],
    ["consent not_required", set("consent", { status: "not_required" })],
    ["viewer_hash", set("viewer_hash", "a".repeat(32) + "0123456789abcdef0123456789abcdef")],
    ["a punycode referrer_host", set("referrer_host", "xn--bcher-kva.example")],
    ["an IPv4 referrer_host", set("referrer_host", "192.168.0.1")],
    ["an IPv6 referrer_host", set("referrer_host", "[2001:db8::1]")],
    ["a referrer_host of 253 characters", set("referrer_host", `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`)],
    ["template_version 12.345", set("template_version", "12.345")],
    ["position_ms at 24 hours", retype("video.paused", { position_ms: 86_400_000 })],
    ["video.incomplete at 0 and with percent 100", retype("video.incomplete", { position_ms: 0, percent: 100 })],
    ["video.paused with watched spans (a rewatch overlaps)", retype("video.paused", { position_ms: 4_000, watched: [[0, 4_000], [2_000, 4_000]] })],
    ["video.completed with no watched span", retype("video.completed", { duration_ms: 10_000, percent: 100, watched: [] })],
    ["video.incomplete with 100 watched spans", retype("video.incomplete", { position_ms: 1, percent: 0, watched: Array.from({ length: 100 }, (_, i) => [i * 10, i * 10 + 5]) })],
    ["video.errored with a message", retype("video.errored", { error_code: "E", message: "x".repeat(500) })],
    ["interaction.engaged with position_ms", retype("interaction.engaged", { action: "seek", position_ms: 4_000 })],
    ["a leap day", set("occurred_at", "2028-02-29T23:59:59.999Z")],
  ])("%s passes", (_name, change) => {
    const batch = batchWith(change);
    expect(validateEventBatch(batch)).toEqual({ ok: true, batch });
  });

  it("accepts 500 events", () => {
    const batch = { sent_at: "2026-11-21T10:00:01.000Z", events: Array.from({ length: 500 }, () => wireEvent("video.paused")) };
    expect(validateEventBatch(batch).ok).toBe(true);
  });
});

describe("validateEventBatch – schema violations", () => {
  it.each<[string, string, string, (event: Json) => void]>([
    ["event_id missing", "events.2.event_id", "is required", drop("event_id")],
    ["payload missing", "events.2.payload", "is required", drop("payload")],
    ["consent missing", "events.2.consent", "is required", drop("consent")],
    ["playback_id missing (null is explicit)", "events.2.playback_id", "is required", drop("playback_id")],
    ["event_type unknown", "events.2.event_type", `must be one of ${eventTypes.map((t) => JSON.stringify(t)).join(", ")}`, set("event_type", "video.rewound")],
    ["event_type a number", "events.2.event_type", "must be a string", set("event_type", 3)],
    ["extra top-level field", "events.2.device", "is not a known field", set("device", { type: "desktop" })],
    ["extra payload field", "events.2.payload.percent", "is not a known field", retype("video.played", { position_ms: 1, percent: 10 })],
    ["session.started payload with a field", "events.2.payload.source", "is not a known field", retype("session.started", { source: "banner" })],
    ["payload an array", "events.2.payload", "must be an object", set("payload", [])],
    ["payload null", "events.2.payload", "must be an object", set("payload", null)],
    ["event_id not a uuid", "events.2.event_id", "must be a UUID in lowercase (8-4-4-4-12 hexadecimal digits)", set("event_id", "not-a-uuid")],
    ["event_id uppercase", "events.2.event_id", "must be a UUID in lowercase (8-4-4-4-12 hexadecimal digits)", set("event_id", "0B6F2C0E-5D1A-4F7E-9A53-3C2D8E4F1A90")],
    ["project_id without hyphens", "events.2.project_id", "must be a UUID in lowercase (8-4-4-4-12 hexadecimal digits)", set("project_id", "9a8b7c6d5e4f4a3b9c2d1e0f9a8b7c6d")],
    ["organization_id a number", "events.2.organization_id", "must be a string", set("organization_id", 1)],
    ["occurred_at without milliseconds", "events.2.occurred_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", set("occurred_at", "2026-11-21T10:00:00Z")],
    ["occurred_at with microseconds", "events.2.occurred_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", set("occurred_at", "2026-11-21T10:00:00.123456Z")],
    ["occurred_at with an offset", "events.2.occurred_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", set("occurred_at", "2026-11-21T11:00:00.123+01:00")],
    ["occurred_at without a zone", "events.2.occurred_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", set("occurred_at", "2026-11-21T10:00:00.123")],
    ["occurred_at empty", "events.2.occurred_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", set("occurred_at", "")],
    ["occurred_at epoch milliseconds", "events.2.occurred_at", "must be a string", set("occurred_at", 1_795_000_000_000)],
    ["occurred_at on a day that does not exist", "events.2.occurred_at", "must be a date and time that exists", set("occurred_at", "2026-02-29T10:00:00.000Z")],
    ["playback_id 0", "events.2.playback_id", "must be at least 1", set("playback_id", 0)],
    ["playback_id 1.5", "events.2.playback_id", "must be an integer or null", set("playback_id", 1.5)],
    ['playback_id "1"', "events.2.playback_id", "must be an integer or null", set("playback_id", "1")],
    ["playback_id beyond int4", "events.2.playback_id", "must be at most 2147483647", set("playback_id", 2_147_483_648)],
    ["percent 30 on video.progressed", "events.2.payload.percent", "must be one of 25, 50, 75", retype("video.progressed", { position_ms: 1, percent: 30 })],
    ["percent 99 on video.completed", "events.2.payload.percent", "must be 100", retype("video.completed", { duration_ms: 1, percent: 99 })],
    ["percent 101 on video.incomplete", "events.2.payload.percent", "must be at most 100", retype("video.incomplete", { position_ms: 1, percent: 101 })],
    ["percent 12.5 on video.incomplete", "events.2.payload.percent", "must be an integer", retype("video.incomplete", { position_ms: 1, percent: 12.5 })],
    ["empty payload on video.played", "events.2.payload.position_ms", "is required", retype("video.played", {})],
    ["empty payload on consent.accepted", "events.2.payload.source", "is required", retype("consent.accepted", {})],
    ["position_ms negative", "events.2.payload.position_ms", "must be at least 0", retype("video.paused", { position_ms: -1 })],
    ["position_ms fractional", "events.2.payload.position_ms", "must be an integer", retype("video.paused", { position_ms: 1.5 })],
    ["duration_ms beyond 24 hours", "events.2.payload.duration_ms", "must be at most 86400000", retype("video.completed", { duration_ms: 86_400_001, percent: 100 })],
    ["watched on video.played", "events.2.payload.watched", "is not a known field", retype("video.played", { position_ms: 1, watched: [[0, 1]] })],
    ["watched an object", "events.2.payload.watched", "must be an array", retype("video.paused", { position_ms: 1, watched: { 0: [0, 1] } })],
    ["101 watched spans", "events.2.payload.watched", "must have at most 100 entries", retype("video.paused", { position_ms: 1, watched: Array.from({ length: 101 }, () => [0, 1]) })],
    ["a watched span of one number", "events.2.payload.watched.0", "must have at least 2 entries", retype("video.completed", { duration_ms: 1, percent: 100, watched: [[0]] })],
    ["a watched span of three numbers", "events.2.payload.watched.0", "must have at most 2 entries", retype("video.completed", { duration_ms: 1, percent: 100, watched: [[0, 1, 2]] })],
    ["a watched span starting below 0", "events.2.payload.watched.1.0", "must be at least 0", retype("video.incomplete", { position_ms: 1, percent: 0, watched: [[0, 1], [-1, 1]] })],
    ["a watched span with a fractional end", "events.2.payload.watched.0.1", "must be an integer", retype("video.paused", { position_ms: 1, watched: [[0, 1.5]] })],
    ["a watched span of strings", "events.2.payload.watched.0.0", "must be an integer", retype("video.paused", { position_ms: 1, watched: [["0", 1]] })],
    ["video.errored without error_code", "events.2.payload.error_code", "is required", retype("video.errored", { message: "boom" })],
    ["error_code empty", "events.2.payload.error_code", "must not be empty", retype("video.errored", { error_code: "" })],
    ["error_code of 65 characters", "events.2.payload.error_code", "must be at most 64 characters", retype("video.errored", { error_code: "E".repeat(65) })],
    ["message of 501 characters", "events.2.payload.message", "must be at most 500 characters", retype("video.errored", { error_code: "E", message: "m".repeat(501) })],
    ["reason of 201 characters", "events.2.payload.reason", "must be at most 200 characters", retype("autoplay.failed", { reason: "r".repeat(201) })],
    ["cta_id of 65 characters", "events.2.payload.cta_id", "must be at most 64 characters", retype("cta.clicked", { cta_id: "c".repeat(65), cta_name: "Book", position_ms: 1 })],
    ["cta_name with a NUL", "events.2.payload.cta_name", "must not contain NUL characters", retype("cta.clicked", { cta_id: "book", cta_name: "Bo\u0000ok", position_ms: 1 })],
    ["chapter_name of 201 characters", "events.2.payload.chapter_name", "must be at most 200 characters", retype("chapter.exited", { chapter_id: "c", chapter_name: "n".repeat(201), position_ms: 1 })],
    ["interaction action unknown", "events.2.payload.action", 'must be one of "click", "unmute", "seek", "fullscreen", "replay"', retype("interaction.engaged", { action: "hover" })],
    ["consent source unknown", "events.2.payload.source", 'must be one of "banner", "host", "api"', retype("consent.declined", { source: "cookie-wall" })],
    ["viewer_hash uppercase", "events.2.viewer_hash", "must be 64 lowercase hexadecimal digits", set("viewer_hash", "A".repeat(64))],
    ["viewer_hash of 63 digits", "events.2.viewer_hash", "must be 64 lowercase hexadecimal digits", set("viewer_hash", "a".repeat(63))],
    ["viewer_hash null", "events.2.viewer_hash", "must be a string", set("viewer_hash", null)],
    ["referrer_host with a path", "events.2.referrer_host", "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)", set("referrer_host", "example.com/landing")],
    ["referrer_host with a space", "events.2.referrer_host", "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)", set("referrer_host", "exa mple.com")],
    ["referrer_host a URL", "events.2.referrer_host", "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)", set("referrer_host", "https://example.com")],
    ["referrer_host with a port", "events.2.referrer_host", "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)", set("referrer_host", "example.com:8080")],
    ["referrer_host empty", "events.2.referrer_host", "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)", set("referrer_host", "")],
    ["referrer_host of 254 characters", "events.2.referrer_host", "must be at most 253 characters", set("referrer_host", `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`)],
    ['template_version "1"', "events.2.template_version", "must be major.minor, e.g. 1.0", set("template_version", "1")],
    ['template_version "1.0.0"', "events.2.template_version", "must be major.minor, e.g. 1.0", set("template_version", "1.0.0")],
    ['consent status "maybe"', "events.2.consent.status", 'must be one of "granted", "not_required", "denied"', set("consent", { status: "maybe" })],
    ["consent without status", "events.2.consent.status", "is required", set("consent", {})],
    ["consent with an extra field", "events.2.consent.at", "is not a known field", set("consent", { status: "granted", at: "2026-11-21T10:00:00.000Z" })],
    ["consent a string", "events.2.consent", "must be an object", set("consent", "granted")],
  ])("%s → %s", (_name, path, message, change) => {
    expect(validateEventBatch(batchWith(change))).toEqual({ ok: false, errors: [{ path, message }] });
  });

  it.each<[string, string, string, unknown]>([
    ["501 events", "events", "must have at most 500 entries", { sent_at: "2026-11-21T10:00:01.000Z", events: Array.from({ length: 501 }, () => wireEvent("video.paused")) }],
    ["0 events", "events", "must have at least 1 entry", { sent_at: "2026-11-21T10:00:01.000Z", events: [] }],
    ["events missing", "events", "is required", { sent_at: "2026-11-21T10:00:01.000Z" }],
    ["events an object", "events", "must be an array", { sent_at: "2026-11-21T10:00:01.000Z", events: { 0: wireEvent("video.paused") } }],
    ["sent_at missing", "sent_at", "is required", { events: [wireEvent("video.paused")] }],
    ["sent_at without milliseconds", "sent_at", "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z", { sent_at: "2026-11-21T10:00:01Z", events: [wireEvent("video.paused")] }],
    ["an extra batch field", "token", "is not a known field", { sent_at: "2026-11-21T10:00:01.000Z", events: [wireEvent("video.paused")], token: "t" }],
    ["an event a string", "events.1", "must be an object", { sent_at: "2026-11-21T10:00:01.000Z", events: [wireEvent("video.paused"), "video.played"] }],
    ["an array body", "", "must be an object", [wireEvent("video.paused")]],
    ["a null body", "", "must be an object", null],
    ["a string body", "", "must be an object", "events"],
  ])("%s → %s", (_name, path, message, body) => {
    expect(validateEventBatch(body)).toEqual({ ok: false, errors: [{ path, message }] });
  });

  it("a bare event instead of a batch → sent_at and events required, each event field unknown", () => {
    const event = wireEvent("video.paused");
    expect(validateEventBatch(event)).toEqual({
      ok: false,
      errors: [
        { path: "sent_at", message: "is required" },
        { path: "events", message: "is required" },
        ...Object.keys(event).map((key) => ({ path: key, message: "is not a known field" })),
      ],
    });
  });

  it("reports every problem of every event, one per field, in document order", () => {
    const body = {
      sent_at: "2026-11-21T10:00:01.000Z",
      events: [
        wireEvent("video.played"),
        { ...wireEvent("video.progressed", { position_ms: -5, percent: 30 as 25 }), playback_id: 0, referrer_host: "a b" },
        { ...wireEvent("session.started"), event_id: "x" },
      ],
    };
    expect(validateEventBatch(body)).toEqual({
      ok: false,
      errors: [
        { path: "events.1.payload.position_ms", message: "must be at least 0" },
        { path: "events.1.payload.percent", message: "must be one of 25, 50, 75" },
        { path: "events.1.playback_id", message: "must be at least 1" },
        { path: "events.1.referrer_host", message: "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)" },
        { path: "events.2.event_id", message: "must be a UUID in lowercase (8-4-4-4-12 hexadecimal digits)" },
      ],
    });
  });

  it(`lists at most ${eventBatchLimits.maxErrors} errors and says when there were more`, () => {
    const events = Array.from({ length: 500 }, () => ({ ...wireEvent("video.paused"), playback_id: 0, template_version: "1" }));
    const result = validateEventBatch({ sent_at: "2026-11-21T10:00:01.000Z", events });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(eventBatchLimits.maxErrors);
    expect(result.errors.slice(0, 4).map((e) => e.path)).toEqual(["events.0.playback_id", "events.0.template_version", "events.1.playback_id", "events.1.template_version"]);
    expect(result.errors.at(-1)).toEqual({ path: "", message: "more errors not listed; the first 49 are" });
  });
});

describe("validateEventBatch – hostile bodies", () => {
  const validText = JSON.stringify({ sent_at: "2026-11-21T10:00:01.000Z", events: [wireEvent("cta.clicked")] });

  it.each<[string, string, string, string]>([
    ["__proto__ in a payload", '"payload":{', '"payload":{"__proto__":{"polluted":true},', "events.0.payload.__proto__"],
    ["__proto__ on the event", '"event_id":', '"__proto__":{"polluted":true},"event_id":', "events.0.__proto__"],
    ["constructor in consent", '"consent":{', '"consent":{"constructor":{"prototype":{"polluted":true}},', "events.0.consent.constructor"],
    ["prototype on the event", '"event_id":', '"prototype":{"polluted":true},"event_id":', "events.0.prototype"],
  ])("%s → error at its path, nothing polluted", (_name, anchor, injected, path) => {
    const text = validText.replace(anchor, injected);
    expect(text).not.toBe(validText);
    const body: unknown = JSON.parse(text);
    expect(validateEventBatch(body)).toEqual({ ok: false, errors: [{ path, message: "is a reserved name, not allowed as a key" }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("__proto__ at the top of the batch", () => {
    const body: unknown = JSON.parse(validText.replace("{", '{"__proto__":[],'));
    expect(validateEventBatch(body)).toEqual({ ok: false, errors: [{ path: "__proto__", message: "is a reserved name, not allowed as a key" }] });
  });

  it("nesting 10,000 levels deep in a payload → one error at the ninth level, no crash, nothing below it read", () => {
    const deep = `${'{"a":'.repeat(10_000)}0${"}".repeat(10_000)}`;
    const body = JSON.parse(validText.replace('"payload":{', `"payload":{"deep":${deep},`)) as { events: { payload: { deep: Nested } }[] };
    // The work stays bounded however deep the body goes: the levels past the tenth are behind a
    // proxy that records every read of them, and validation must make none.
    type Nested = { a: Nested | number };
    let tenth = body.events[0]!.payload.deep;
    for (let level = 1; level < 10; level++) tenth = tenth.a as Nested;
    const reads: string[] = [];
    const handler: ProxyHandler<Nested> = {};
    for (const trap of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const) {
      (handler as Record<string, unknown>)[trap] = (...args: unknown[]) => {
        reads.push(trap);
        return (Reflect[trap] as (...args: unknown[]) => unknown)(...args);
      };
    }
    tenth.a = new Proxy(tenth.a as Nested, handler);
    expect(validateEventBatch(body)).toEqual({
      ok: false,
      errors: [{ path: "events.0.payload.deep.a.a.a.a", message: "nests objects and arrays deeper than 8 levels" }],
    });
    expect(reads).toEqual([]);
  });

  it("a body of 10,000 nested arrays → one error, no crash", () => {
    const body: unknown = JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    expect(validateEventBatch(body)).toEqual({
      ok: false,
      errors: [{ path: "0.0.0.0.0.0.0.0", message: "nests objects and arrays deeper than 8 levels" }],
    });
  });

  it("8 levels are allowed (the schema then reports the unknown field), 9 are not", () => {
    // body 1, events 2, event 3, payload 4, then one level per "a"
    const nested = (levels: number) => validText.replace('"payload":{', `"payload":{"a":${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)},`);
    expect(validateEventBatch(JSON.parse(nested(4)))).toEqual({ ok: false, errors: [{ path: "events.0.payload.a", message: "is not a known field" }] });
    expect(validateEventBatch(JSON.parse(nested(5)))).toEqual({
      ok: false,
      errors: [{ path: "events.0.payload.a.a.a.a.a", message: "nests objects and arrays deeper than 8 levels" }],
    });
  });

  it("many reserved keys → the list is capped", () => {
    const events = Array.from({ length: 100 }, () => JSON.parse(JSON.stringify(wireEvent("video.paused")).replace("{", '{"__proto__":1,')) as Json);
    const result = validateEventBatch({ sent_at: "2026-11-21T10:00:01.000Z", events });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(eventBatchLimits.maxErrors);
    expect(result.errors[0]).toEqual({ path: "events.0.__proto__", message: "is a reserved name, not allowed as a key" });
    expect(result.errors.at(-1)?.path).toBe("");
  });
});

describe("validateEvent – the consent beacon's single event", () => {
  it("accepts a consent event", () => {
    const event = wireEvent("consent.declined");
    expect(validateEvent(event)).toEqual({ ok: true, event });
  });

  it("reports paths from the event", () => {
    expect(validateEvent({ ...wireEvent("consent.accepted"), payload: { source: "cookie-wall" } })).toEqual({
      ok: false,
      errors: [{ path: "payload.source", message: 'must be one of "banner", "host", "api"' }],
    });
  });

  it("counts depth from the event", () => {
    const event = JSON.parse(JSON.stringify(wireEvent("consent.accepted")).replace('"payload":{', `"payload":{"a":${'{"a":'.repeat(7)}{}${"}".repeat(7)},`)) as unknown;
    expect(validateEvent(event)).toEqual({ ok: false, errors: [{ path: "payload.a.a.a.a.a.a.a", message: "nests objects and arrays deeper than 8 levels" }] });
  });

  it("rejects a batch", () => {
    const result = validateEvent({ sent_at: "2026-11-21T10:00:01.000Z", events: [wireEvent("consent.accepted")] });
    expect(result.ok).toBe(false);
  });

  it("rejects __proto__", () => {
    const event: unknown = JSON.parse(JSON.stringify(wireEvent("consent.accepted")).replace("{", '{"__proto__":{"polluted":true},'));
    expect(validateEvent(event)).toEqual({ ok: false, errors: [{ path: "__proto__", message: "is a reserved name, not allowed as a key" }] });
  });
});

describe("event-schema-v1.json and the TypeScript types", () => {
  it("names the same 14 event types as eventTypes", () => {
    expect(eventTypes).toHaveLength(14);
    expect(eventSchema.properties.event_type.enum).toEqual([...eventTypes]);
  });

  it("gives every event type exactly one payload rule", () => {
    const covered = eventSchema.allOf.flatMap((rule) => {
      const condition = rule.if.properties.event_type as { const?: string; enum?: string[] };
      return condition.enum ?? [condition.const!];
    });
    expect([...covered].sort()).toEqual([...eventTypes].sort());
  });

  it("requires every field the TypeScript type requires", () => {
    const required = Object.keys(wireEvent("video.played")).sort();
    expect([...eventSchema.required].sort()).toEqual(required);
    expect(eventBatchLimits.maxEvents).toBe(500);
  });
});
