import { describe, expect, it } from "vitest";
import { analyticsSearch, heatmapSearch, previousWindow, readView, viewSearch, viewWindow } from "./dashboard-view";

const now = new Date("2026-11-25T23:50:29.000Z");
const view = (query: string) => readView(new URLSearchParams(query));
const iso = (window: { from: Date; to: Date; granularity: string }) => [window.from.toISOString(), window.to.toISOString(), window.granularity];
const templateId = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";

describe("readView and viewSearch", () => {
  it("no query – the last 7 days, no filters, and an empty query back", () => {
    expect(view("")).toMatchObject({ range: "7d", channel: null, templateId: null, country: null });
    expect(viewSearch(view(""))).toBe("");
  });

  it("a full view survives the round trip through the URL", () => {
    const query = `range=custom&from=2026-10-01&to=2026-10-31&channel=PROD&templateId=${templateId}&templateVersion=1.2&deviceType=mobile&country=FR&heatmap=${templateId}`;
    expect(viewSearch(view(query))).toBe(query);
  });

  it.each([
    ["an unknown preset", "range=1y", { range: "7d" }],
    ["custom without dates", "range=custom", { range: "7d", fromDate: null }],
    ["custom dates in the wrong order", "range=custom&from=2026-10-31&to=2026-10-01", { range: "7d" }],
    ["custom dates over 366 days", "range=custom&from=2025-01-01&to=2026-01-10", { range: "7d" }],
    ["a date that does not parse", "range=custom&from=2026-13-01&to=2026-10-01", { range: "7d" }],
    ["a lowercase channel", "channel=prod", { channel: null }],
    ["a template id that is no UUID", "templateId=abc", { templateId: null }],
    ["a country in lowercase", "country=fr", { country: null }],
    ["a template version of three parts", "templateVersion=1.0.0", { templateVersion: null }],
  ])("%s – ignored", (_name, query, expected) => {
    expect(view(query)).toMatchObject(expected);
  });
});

describe("viewWindow", () => {
  it.each([
    ["today", "range=today", ["2026-11-25T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "hour"]],
    ["7d", "", ["2026-11-19T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "day"]],
    ["30d", "range=30d", ["2026-10-27T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "day"]],
    ["90d", "range=90d", ["2026-08-28T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "day"]],
    ["custom, both days included", "range=custom&from=2026-10-01&to=2026-10-31", ["2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z", "day"]],
    ["custom, one day – by the hour", "range=custom&from=2026-10-01&to=2026-10-01", ["2026-10-01T00:00:00.000Z", "2026-10-02T00:00:00.000Z", "hour"]],
  ])("%s", (_name, query, expected) => {
    expect(iso(viewWindow(view(query), now))).toEqual(expected);
  });

  it("today is the whole UTC day, by the hour, whatever the time", () => {
    expect(iso(viewWindow(view("range=today"), new Date("2026-11-25T23:59:59.999Z")))).toEqual(["2026-11-25T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "hour"]);
  });

  it("the previous period has the same length and ends where the window starts", () => {
    expect(iso(previousWindow(viewWindow(view("range=30d"), now)))).toEqual(["2026-09-27T00:00:00.000Z", "2026-10-27T00:00:00.000Z", "day"]);
  });
});

describe("analyticsSearch", () => {
  const filtered = view(`channel=PROD&templateId=${templateId}&deviceType=mobile&country=FR`);
  const window = viewWindow(filtered, now);

  it("sends the filters and the granularity", () => {
    expect(Object.fromEntries(new URLSearchParams(analyticsSearch(window, filtered)))).toEqual({
      from: "2026-11-19T00:00:00.000Z",
      to: "2026-11-26T00:00:00.000Z",
      channel: "PROD",
      templateId,
      deviceType: "mobile",
      country: "FR",
      granularity: "day",
    });
  });
});

describe("heatmapSearch", () => {
  it("the window and the filters, no granularity (the heatmap is per second)", () => {
    const filtered = view("range=today&deviceType=mobile");
    expect(heatmapSearch(viewWindow(filtered, now), filtered)).toBe("from=2026-11-25T00%3A00%3A00.000Z&to=2026-11-26T00%3A00%3A00.000Z&deviceType=mobile");
  });
});
