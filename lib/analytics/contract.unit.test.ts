import { afterEach, describe, expect, it, vi } from "vitest";
import { analyticsQuery, windowDays } from "./contract";

const parse = (input: Record<string, string>) => analyticsQuery.parse(input);
const at = (iso: string) => new Date(iso);

describe("analyticsQuery – the window", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const now = (iso: string) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at(iso));
  };

  it("analyticsQuery – no parameters: the 30 UTC days ending with today", () => {
    now("2026-03-10T23:59:59.999Z");
    expect(parse({})).toEqual({
      from: at("2026-02-09T00:00:00Z"),
      to: at("2026-03-11T00:00:00Z"),
      channel: null,
      templateId: null,
      templateVersion: null,
      deviceType: null,
      country: null,
      granularity: "day",
    });
    now("2026-03-10T00:00:00.000Z");
    expect(parse({}).to).toEqual(at("2026-03-11T00:00:00Z"));
  });

  it.each([
    { name: "a 1-hour window", from: "2026-03-01T10:00:00Z", to: "2026-03-01T11:00:00Z", granularity: "hour" },
    { name: "a window touching 2 UTC days", from: "2026-03-01T10:00:00Z", to: "2026-03-03T00:00:00Z", granularity: "hour" },
    { name: "a window touching 3 UTC days", from: "2026-03-01T23:00:00Z", to: "2026-03-03T00:00:01Z", granularity: "day" },
  ])("analyticsQuery – default granularity for $name: $granularity", ({ from, to, granularity }) => {
    expect(parse({ from, to }).granularity).toBe(granularity);
  });

  it("analyticsQuery – granularity=hour is accepted up to 31 UTC days", () => {
    expect(parse({ from: "2026-01-01", to: "2026-02-01", granularity: "hour" }).granularity).toBe("hour");
    expect(analyticsQuery.safeParse({ from: "2026-01-01", to: "2026-02-01T00:00:00.001Z", granularity: "hour" }).success).toBe(false);
  });

  it("analyticsQuery – only to: from is 30 days earlier", () => {
    now("2026-03-10T12:00:00Z");
    expect(parse({ to: "2025-07-01" })).toMatchObject({ from: at("2025-06-01T00:00:00Z"), to: at("2025-07-01T00:00:00Z") });
  });

  it("analyticsQuery – only from: to is the next UTC midnight, or from + 30 days when from is later", () => {
    now("2026-03-10T12:00:00Z");
    expect(parse({ from: "2026-01-01" })).toMatchObject({ from: at("2026-01-01T00:00:00Z"), to: at("2026-03-11T00:00:00Z") });
    expect(parse({ from: "2026-03-10T23:00:00Z" }).to).toEqual(at("2026-03-11T00:00:00Z"));
    expect(parse({ from: "2026-03-11" }).to).toEqual(at("2026-04-10T00:00:00Z"));
  });

  it("analyticsQuery – dates are UTC midnight; date-times keep their instant, whatever the offset", () => {
    expect(parse({ from: "2026-03-01", to: "2026-03-02T10:30:00.123+02:00" })).toMatchObject({
      from: at("2026-03-01T00:00:00.000Z"),
      to: at("2026-03-02T08:30:00.123Z"),
    });
  });

  it("analyticsQuery – 366 UTC days is the longest window", () => {
    expect(parse({ from: "2026-03-01", to: "2027-03-02" }).to).toEqual(at("2027-03-02T00:00:00Z"));
  });

  it("analyticsQuery – channel and templateId pass through; a templateId is lowercased", () => {
    const id = "0F0E0D0C-0B0A-4908-8706-050403020100";
    expect(parse({ from: "2026-03-01", to: "2026-03-02", channel: "STAGING", templateId: id })).toMatchObject({
      channel: "STAGING",
      templateId: id.toLowerCase(),
    });
  });

  it.each([
    { name: "367 UTC days", input: { from: "2026-03-01", to: "2027-03-03" }, path: "to" },
    { name: "to equal to from, written differently", input: { from: "2026-03-01", to: "2026-03-01T00:00:00.000Z" }, path: "to" },
    { name: "to 1 ms before from", input: { from: "2026-03-01T00:00:00.001Z", to: "2026-03-01" }, path: "to" },
    { name: "a local time", input: { from: "2026-03-01T00:00:00" }, path: "from" },
    { name: "a space instead of T", input: { from: "2026-03-01 00:00:00Z" }, path: "from" },
    { name: "a basic-format date", input: { from: "20260301" }, path: "from" },
    { name: "a channel in mixed case", input: { channel: "Prod" }, path: "channel" },
    { name: "an unknown parameter", input: { extra: "1" }, path: "extra" },
  ])("analyticsQuery – $name is refused at $path", ({ input, path }) => {
    const result = analyticsQuery.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join(".") || (issue as { keys?: string[] }).keys?.join(","))).toContain(path);
  });
});

describe("windowDays – UTC dates a window [from, to) touches", () => {
  it.each([
    ["2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", 1],
    ["2026-03-01T00:00:00Z", "2026-03-02T00:00:00.001Z", 2],
    ["2026-03-01T23:59:59.999Z", "2026-03-02T00:00:00.001Z", 2],
    ["2026-03-01T12:00:00Z", "2026-03-01T13:00:00Z", 1],
    ["2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z", 366],
    ["2026-03-01T00:00:00Z", "2026-03-01T00:00:00Z", 0],
    ["2026-03-02T00:00:00Z", "2026-03-01T00:00:00Z", 0],
  ])("windowDays(%s, %s) = %i", (from, to, days) => {
    expect(windowDays(at(from), at(to))).toBe(days);
  });
});
