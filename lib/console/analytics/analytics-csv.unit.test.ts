import { describe, expect, it } from "vitest";
import { analyticsCsv, csvField } from "./analytics-csv";
import type { AnalyticsReport } from "./analytics-types";

const row = (key: string, sessions = 0, plays = 0) => ({ key, sessions, plays, completions: 0, ctaClicks: 0 });
const summary = {
  sessions: 2, uniqueViewers: 2, plays: 1, sessionsWithPlay: 1, playRate: 0.5, completedPlays: 1, completionRate: 1,
  averageWatchPercent: 100, ctaClicks: 0, sessionsWithPlayAndCtaClick: 0, ctr: 0, autoplayFailures: 0, errors: 0,
};
const report: AnalyticsReport = {
  window: { from: "2026-11-19T00:00:00.000Z", to: "2026-11-26T00:00:00.000Z" },
  freshness: { asOf: "2026-11-25T18:00:00.000Z", pendingEvents: 0 },
  filters: { channel: "PROD", templateId: null, templateVersion: null, deviceType: null, country: null },
  summary,
  previous: { window: { from: "2026-11-12T00:00:00.000Z", to: "2026-11-19T00:00:00.000Z" }, summary: { ...summary, sessions: 0 } },
  series: { granularity: "day", points: [{ start: "2026-11-25T00:00:00.000Z", sessions: 2, plays: 1, completions: 1, ctaClicks: 0 }] },
  funnel: { plays: 1, steps: [25, 50, 75, 100].map((percent) => ({ percent: percent as 25, count: 1, share: 1 })) },
  chapters: [{ chapterId: "intro", chapterName: "Intro, part 1", sessions: 1, plays: 1, share: 1 }],
  excluded: { botEvents: 0 },
  breakdowns: {
    day: [row("2026-11-25", 2, 1)],
    channel: [row("PROD", 2, 1)],
    templateVersion: [],
    deviceType: [row("desktop", 2, 1)],
    browser: [],
    os: [],
    referrerHost: [row("news.example", 1)],
    country: [row("=cmd|' /C calc'!A0", 1)],
  },
};

describe("csvField", () => {
  it.each([
    ["plain", "desktop", "desktop"],
    ["a number", 0.5, "0.5"],
    ["null", null, ""],
    ["a comma", "a,b", '"a,b"'],
    ["a quote", 'say "hi"', '"say ""hi"""'],
    ["a formula", "=1+1", "'=1+1"],
    ["a negative number stays a number", -2, "-2"],
  ] as const)("%s", (_name, value, text) => {
    expect(csvField(value)).toBe(text);
  });
});

describe("analyticsCsv", () => {
  it("the window, the filters, the KPIs and the previous period's, the funnel, the series, the breakdowns and the chapters in four columns", () => {
    const lines = analyticsCsv(report, { filters: { channel: "PROD", country: null } }, null).split("\r\n");
    expect(lines.slice(0, 6)).toEqual([
      "section,key,metric,value",
      "window,from,,2026-11-19T00:00:00.000Z",
      "window,to,,2026-11-26T00:00:00.000Z",
      "filter,channel,,PROD",
      "summary,,sessions,2",
      "previous period,,sessions,0",
    ]);
    expect(lines).toContain("funnel,100%,share,1");
    expect(lines).toContain("series,2026-11-25T00:00:00.000Z,plays,1");
    expect(lines).toContain("by referrerHost,news.example,sessions,1");
    expect(lines).toContain('chapters,"Intro, part 1",share,1');
    expect(lines).toContain("by deviceType,desktop,sessions,2");
    expect(lines).toContain("by country,'=cmd|' /C calc'!A0,sessions,1");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(1, -1).every((line) => line.split(",").length >= 4)).toBe(true);
  });
});
