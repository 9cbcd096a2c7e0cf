import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { WireEvent } from "@/shared/events/wire-events";
import { countryFromHeader, describeDevice, deviceCacheLimits, enrichEvents, type EnrichmentContext } from "./enrich";

const chromeWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const safariIphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

describe("describeDevice", () => {
  it.each<[string, string | null, { type: string; os: string | null; browser: string | null }]>([
    ["Chrome on Windows", chromeWindows, { type: "desktop", os: "Windows", browser: "Chrome" }],
    [
      "Edge on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67",
      { type: "desktop", os: "Windows", browser: "Edge" },
    ],
    [
      "Safari on a Mac",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
      { type: "desktop", os: "Mac OS", browser: "Safari" },
    ],
    ["Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", { type: "desktop", os: "Linux", browser: "Firefox" }],
    [
      "Firefox on Ubuntu",
      "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
      { type: "desktop", os: "Ubuntu", browser: "Firefox" },
    ],
    [
      "Chrome on a Chromebook",
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      { type: "desktop", os: "Chromium OS", browser: "Chrome" },
    ],
    ["Safari on an iPhone", safariIphone, { type: "mobile", os: "iOS", browser: "Mobile Safari" }],
    [
      "Safari on an iPad",
      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
      { type: "tablet", os: "iOS", browser: "Mobile Safari" },
    ],
    [
      "Chrome on an Android phone",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
      { type: "mobile", os: "Android", browser: "Chrome" },
    ],
    [
      "Chrome on a Cubot phone (not a bot)",
      "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
      { type: "mobile", os: "Android", browser: "Chrome" },
    ],
    [
      "Samsung Internet on a Tizen TV",
      "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36",
      { type: "tv", os: "Tizen", browser: "Samsung Internet" },
    ],
    [
      "PlayStation 5",
      "Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)",
      { type: "console", os: "PlayStation", browser: "WebKit" },
    ],
    [
      "Galaxy Watch",
      "Mozilla/5.0 (Linux; Android 11; SM-R860) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0 Mobile Safari/537.36",
      { type: "wearable", os: "Android", browser: "Chrome" },
    ],
    ["Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", { type: "bot", os: null, browser: null }],
    [
      "Googlebot smartphone (parses as an Android phone)",
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.118 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      { type: "bot", os: "Android", browser: "Chrome" },
    ],
    [
      "headless Chrome",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
      { type: "bot", os: "Linux", browser: "Chrome Headless" },
    ],
    ["curl", "curl/8.5.0", { type: "bot", os: null, browser: null }],
    ["python-requests", "python-requests/2.31.0", { type: "bot", os: null, browser: null }],
    // isbot counts a User-Agent that is one product token, as no browser sends, as a script.
    ["an unknown app", "SomeApp/1.0", { type: "bot", os: null, browser: null }],
    ["an unknown browser-like app", "Mozilla/5.0 (Unknown) SomeApp/1.0", { type: "other", os: null, browser: null }],
    ["empty", "", { type: "other", os: null, browser: null }],
    ["absent", null, { type: "other", os: null, browser: null }],
    ["10 KB of garbage", "xQ#\u0000%".repeat(2_048), { type: "bot", os: null, browser: null }],
  ])("describeDevice – %s", (_case, userAgent, expected) => {
    expect(describeDevice(userAgent)).toEqual(expected);
  });

  it("describeDevice – reads only the first 500 characters of a long User-Agent", () => {
    const padded = (tail: string) => `${chromeWindows} ${"x".repeat(deviceCacheLimits.maxUserAgentLength)}${tail}`;
    const first = describeDevice(padded("Googlebot/2.1"));
    expect(first).toEqual({ type: "desktop", os: "Windows", browser: "Chrome" });
    expect(describeDevice(padded("curl/8.5.0"))).toBe(first);
  });

  it("describeDevice – returns the cached, frozen object for a repeated User-Agent", () => {
    const first = describeDevice(safariIphone);
    expect(describeDevice(safariIphone)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it("describeDevice – evicts the least recently used User-Agent beyond maxEntries", () => {
    const run = randomUUID();
    const recent = `RecentAgent/${run}`;
    const stale = `StaleAgent/${run}`;
    const recentDevice = describeDevice(recent);
    const staleDevice = describeDevice(stale);
    // Enough new entries to push out everything older than these two, and then one of them.
    for (let i = 1; i < deviceCacheLimits.maxEntries; i++) {
      describeDevice(`FillerAgent/${run}/${i}`);
      if (i === deviceCacheLimits.maxEntries / 2) describeDevice(recent);
    }
    expect(describeDevice(recent)).toBe(recentDevice);
    const reparsed = describeDevice(stale);
    expect(reparsed).not.toBe(staleDevice);
    expect(reparsed).toEqual(staleDevice);
  });
});

describe("countryFromHeader", () => {
  it.each<[string | null, string | null]>([
    ["PT", "PT"],
    ["pt", "PT"],
    ["Gb", "GB"],
    ["XK", "XK"],
    ["XX", null],
    ["ZZ", null],
    ["EU", null],
    ["UK", null],
    ["T1", null],
    ["A1", null],
    ["P1", null],
    ["PRT", null],
    ["P", null],
    [" PT", null],
    ["", null],
    [null, null],
    ["ÁÁ", null],
    ["\u0131t", null], // dotless i: "ıt".toUpperCase() is "IT"
    ["\u017Fe", null], // long s: "ſe".toUpperCase() is "SE"
  ])("countryFromHeader(%j) – %j", (value, expected) => {
    expect(countryFromHeader(value)).toBe(expected);
  });

  it("countryFromHeader – accepts the 249 ISO 3166-1 codes and XK, each a region ICU knows", () => {
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const pairs = [...letters].flatMap((a) => [...letters].map((b) => a + b));
    const accepted = pairs.filter((code) => countryFromHeader(code) !== null);
    expect(accepted).toHaveLength(250);
    const regions = new Intl.DisplayNames("en", { type: "region" });
    expect(accepted.filter((code) => regions.of(code) === code)).toEqual([]);
  });
});

describe("enrichEvents", () => {
  const claims = { organizationId: randomUUID(), projectId: randomUUID() };

  function wireEvent(overrides: Partial<WireEvent> = {}): WireEvent {
    return {
      event_id: randomUUID(),
      event_type: "video.progressed",
      occurred_at: "2026-11-21T10:00:00.123Z",
      playback_id: 2,
      payload: { position_ms: 1500, percent: 25 },
      organization_id: randomUUID(),
      project_id: randomUUID(),
      template_id: randomUUID(),
      template_version: "1.3",
      session_id: randomUUID(),
      consent: { status: "granted" },
      ...overrides,
    } as WireEvent;
  }

  function context(overrides: Partial<EnrichmentContext> = {}): EnrichmentContext {
    return { ...claims, userAgent: chromeWindows, country: "pt", receivedAt: new Date("2026-11-21T10:00:01.456Z"), ...overrides };
  }

  it("enrichEvents – overwrites the client's organization_id and project_id with the claims and keeps the client fields", () => {
    const event = wireEvent({ viewer_hash: "a".repeat(64), referrer_host: "news.example.com" });
    const shareId = randomUUID();
    const [row] = enrichEvents([event], context({ shareId, channel: "PROD" }));
    expect(row).toEqual({
      organization_id: claims.organizationId,
      project_id: claims.projectId,
      event_id: event.event_id,
      event_type: "video.progressed",
      occurred_at: "2026-11-21T10:00:00.123Z",
      received_at: "2026-11-21T10:00:01.456Z",
      template_id: event.template_id,
      template_version: "1.3",
      session_id: event.session_id,
      playback_id: 2,
      viewer_hash: "a".repeat(64),
      referrer_host: "news.example.com",
      consent: { status: "granted" },
      payload: { position_ms: 1500, percent: 25 },
      device: { type: "desktop", os: "Windows", browser: "Chrome" },
      geo: { country: "PT" },
      share_id: shareId,
      channel: "PROD",
      is_bot: false,
    });
  });

  it.each<[string, string, boolean]>([
    ["Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true],
    ["bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", true],
    ["a link preview (Slackbot)", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", true],
    ["headless Chrome", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36", true],
    ["curl", "curl/8.5.0", true],
    ["Chrome on Windows", chromeWindows, false],
    ["Chrome on a Cubot phone", "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", false],
  ])("enrichEvents – is_bot for %s: %s; the device type agrees", (_case, userAgent, isBot) => {
    const [row] = enrichEvents([wireEvent()], context({ userAgent }));
    expect(row!.is_bot).toBe(isBot);
    expect(row!.device!.type === "bot").toBe(isBot);
  });

  it("enrichEvents – a template in the context replaces each event's template_id and template_version", () => {
    const template = { id: randomUUID(), version: "2.0" };
    const events = [wireEvent(), wireEvent({ template_version: "2.1" }), wireEvent({ template_id: template.id })];
    const rows = enrichEvents(events, context({ template }));
    expect(rows.map((row) => [row.template_id, row.template_version])).toEqual(events.map(() => [template.id, "2.0"]));
  });

  it("enrichEvents – sets absent optional fields, share and channel to null", () => {
    const [row] = enrichEvents([wireEvent({ playback_id: null })], context());
    expect(row).toMatchObject({ playback_id: null, viewer_hash: null, referrer_host: null, share_id: null, channel: null });
  });

  it.each<[string, string | null]>([
    ["a placeholder", "XX"],
    ["a three-letter code", "PRT"],
    ["no header", null],
  ])("enrichEvents – geo is null for %s", (_case, country) => {
    const [row] = enrichEvents([wireEvent()], context({ country }));
    expect(row!.geo).toBeNull();
  });

  it("enrichEvents – gives every row of the batch the same device, geo and received_at", () => {
    const rows = enrichEvents([wireEvent(), wireEvent({ event_type: "session.started", payload: {} })], context({ userAgent: null }));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.device).toEqual({ type: "other", os: null, browser: null });
    expect(rows[1]!.device).toBe(rows[0]!.device);
    expect(rows.map((row) => [row.geo, row.received_at])).toEqual([
      [{ country: "PT" }, "2026-11-21T10:00:01.456Z"],
      [{ country: "PT" }, "2026-11-21T10:00:01.456Z"],
    ]);
  });
});
