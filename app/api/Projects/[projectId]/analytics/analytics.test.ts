import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionRows, viewerHash, type SessionSpec, type Step, type Tenant } from "@/testing/analytics-sessions";
import { projectAnalyticsSchema, type ProjectAnalytics } from "@/lib/analytics/contract";
import { getDb } from "@/lib/db";
import { insertEventRows, type EventRow } from "@/lib/ingest/store-events";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { GET as analyticsRoute } from "./route";

type Member = Awaited<ReturnType<typeof createTestMember>>;
type Breakdowns = ProjectAnalytics["breakdowns"];
type Row = Breakdowns["day"][number];

// ── the scenario ───────────────────────────────────────────────────────────────────────
//
// Window 2026-03-01 (inclusive) to 2026-03-03 (exclusive). Four sessions in it:
//   S1  03-01 00:00:00.000 (exactly `from`)  PROD  template 1.0  desktop Chrome        US    viewer H1
//       no play; one autoplay failure
//   S2  03-01 10:00  PROD  1.0  mobile Mobile Safari  DE    viewer H1 (same viewer as S1)
//       playback 1: played, paused, played again (still one play), 25 %, incomplete at 60 %
//   S3  03-02 08:00  DEV   2.0  desktop Firefox       US    no viewer hash (counts by session id)
//       consent, chapter and interaction noise; playback 1: 25 %, 75 % (a seek skipped 50),
//       completed; two CTA clicks
//   S4  03-02 12:00  PROD  2.0  mobile, no browser     no country   viewer H2
//       playback 1: 50 % (25 and 50 crossed at once), completed (a seek skipped 75);
//       playback 2: played, errored
//   S6  03-01 15:00  PROD  1.0  a bot: session, play, CTA click: in no metric, 3 excluded events
// Outside it: S0 at 02-28 23:59:59.999 (1 ms before `from`) and S5 at 03-03 00:00:00.000 (exactly
// `to`). The same sessions, under other ids, go to a project of another organization and to a
// sibling project of the same one: neither may ever count.
//
// By hand, for the window:
//   sessions 4; unique viewers 3 (H1, S3, H2); plays 4 (S2/1, S3/1, S4/1, S4/2);
//   sessions with a play 3 → play rate 3/4; completed plays 2 (S3/1, S4/1) → completion 2/4;
//   watch percent per play 60, 100, 100, 0 → average 65; CTA clicks 2, playing sessions that
//   clicked 1 (S3) → CTR 1/3; autoplay failures 1; errors 1.
//   funnel: ≥25 S2/1, S3/1, S4/1 = 3; ≥50 S3/1 (75 implies 50), S4/1 = 2; ≥75 S3/1, S4/1
//   (completion implies 75) = 2; 100 = 2.
//   series (hourly: the window touches 2 UTC days): 03-01 00h S1; 10h S2 and its play; 03-02 08h
//   S3, its completed play and 2 clicks; 12h S4 and its 2 plays, 1 completed.
//   previous period 02-27 – 03-01: S0 alone (1 session, 1 viewer, 1 autoplay failure).
//   chapters: S3's play entered "intro": 1 session, 1 play of 4.

const from = "2026-03-01T00:00:00.000Z";
const to = "2026-03-03T00:00:00.000Z";
const inWindow = "?from=2026-03-01&to=2026-03-03";

const template1 = { templateId: randomUUID(), templateVersion: "1.0" };
const template2 = { templateId: randomUUID(), templateVersion: "2.0" };
const desktopChrome = { type: "desktop", os: "Windows", browser: "Chrome" };
const mobileSafari = { type: "mobile", os: "iOS", browser: "Mobile Safari" };
const desktopFirefox = { type: "desktop", os: "Linux", browser: "Firefox" };
const mobileUnknownBrowser = { type: "mobile", os: "Android", browser: null };

function scenarioRows(tenant: Tenant, idPrefix: string): EventRow[] {
  const session = (name: string, spec: Omit<SessionSpec, "sessionId">, steps: Step[]) =>
    sessionRows(tenant, { ...spec, sessionId: `${idPrefix}-${name}` }, steps);
  return [
    ...session(
      "s0",
      { start: "2026-02-28T23:59:59.999Z", channel: "PROD", ...template1, device: desktopChrome, country: "US", viewerHash: viewerHash(3) },
      [
        [0, "session.started", null],
        [0, "autoplay.failed", null],
      ],
    ),
    ...session("s1", { start: from, channel: "PROD", ...template1, device: desktopChrome, country: "US", viewerHash: viewerHash(1) }, [
      [0, "session.started", null],
      [5, "autoplay.failed", null],
    ]),
    ...session(
      "s2",
      { start: "2026-03-01T10:00:00.000Z", channel: "PROD", ...template1, device: mobileSafari, country: "DE", viewerHash: viewerHash(1) },
      [
        [0, "session.started", null],
        [1, "video.played", 1, { position_ms: 0 }],
        [4, "video.paused", 1, { position_ms: 3000 }],
        [6, "video.played", 1, { position_ms: 3000 }],
        [8, "video.progressed", 1, { position_ms: 5000, percent: 25 }],
        [12, "video.incomplete", 1, { position_ms: 12_000, percent: 60 }],
      ],
    ),
    ...session(
      "s3",
      { start: "2026-03-02T08:00:00.000Z", channel: "DEV", ...template2, device: desktopFirefox, country: "US", viewerHash: null },
      [
        [0, "session.started", null],
        [0, "consent.accepted", null],
        [1, "video.played", 1],
        [2, "chapter.entered", 1],
        [6, "video.progressed", 1, { position_ms: 5000, percent: 25 }],
        [10, "interaction.engaged", 1],
        [11, "video.progressed", 1, { position_ms: 15_000, percent: 75 }],
        [20, "video.completed", 1],
        [21, "cta.clicked", 1],
        [22, "cta.clicked", 1],
      ],
    ),
    ...session(
      "s4",
      { start: "2026-03-02T12:00:00.000Z", channel: "PROD", ...template2, device: mobileUnknownBrowser, country: null, viewerHash: viewerHash(2) },
      [
        [0, "session.started", null],
        [1, "video.played", 1],
        [3, "video.progressed", 1, { position_ms: 10_000, percent: 50 }],
        [10, "video.completed", 1],
        [12, "video.played", 2],
        [13, "video.errored", 2],
      ],
    ),
    // A crawler in the window: stored, kept out of every metric, counted as excluded.
    ...session(
      "s6",
      {
        start: "2026-03-01T15:00:00.000Z",
        channel: "PROD",
        ...template1,
        device: { type: "bot", os: null, browser: null },
        country: "US",
        viewerHash: null,
        isBot: true,
      },
      [
        [0, "session.started", null],
        [1, "video.played", 1],
        [2, "cta.clicked", 1],
      ],
    ),
    ...session("s5", { start: to, channel: "PROD", ...template1, device: mobileSafari, country: "DE", viewerHash: viewerHash(4) }, [
      [0, "session.started", null],
      [0, "video.played", 1],
      [0, "cta.clicked", 1],
    ]),
  ];
}

const row = (key: string, sessions: number, plays: number, completions: number, ctaClicks: number): Row => ({
  key,
  sessions,
  plays,
  completions,
  ctaClicks,
});

const funnel = (plays: number, reached: [number, number, number, number]) => ({
  plays,
  steps: ([25, 50, 75, 100] as const).map((percent, i) => ({
    percent,
    count: reached[i]!,
    share: plays === 0 ? null : reached[i]! / plays,
  })),
});

const zeroSummary = {
  sessions: 0,
  uniqueViewers: 0,
  plays: 0,
  sessionsWithPlay: 0,
  playRate: null,
  completedPlays: 0,
  completionRate: null,
  averageWatchPercent: null,
  ctaClicks: 0,
  sessionsWithPlayAndCtaClick: 0,
  ctr: null,
  autoplayFailures: 0,
  errors: 0,
};

const noBreakdowns = { channel: [], templateVersion: [], deviceType: [], browser: [], os: [], referrerHost: [], country: [] };

type Point = ProjectAnalytics["series"]["points"][number];

/** The window's 48 hourly points, zero except those given (by ISO start). */
function hourly(nonZero: Record<string, [sessions: number, plays: number, completions: number, ctaClicks: number]>): Point[] {
  return Array.from({ length: 48 }, (_, i) => {
    const start = new Date(Date.parse(from) + i * 3_600_000).toISOString();
    const [sessions, plays, completions, ctaClicks] = nonZero[start] ?? [0, 0, 0, 0];
    return { start, sessions, plays, completions, ctaClicks };
  });
}

const previousWindow = { from: "2026-02-27T00:00:00.000Z", to: from };
const previousSummary = { ...zeroSummary, sessions: 1, uniqueViewers: 1, playRate: 0, autoplayFailures: 1 };
const noFilters = { channel: null, templateId: null, templateVersion: null, deviceType: null, country: null };

// ── tenants ────────────────────────────────────────────────────────────────────────────

let home: Awaited<ReturnType<typeof createTestProject>>;
let elsewhere: Awaited<ReturnType<typeof createTestProject>>;
let viewer: Member;
let orgViewer: Member;
let elsewhereAdmin: Member;

let homeFreshness: ProjectAnalytics["freshness"];

beforeAll(async () => {
  const db = await getDb();
  home = await createTestProject();
  elsewhere = await createTestProject();
  const sibling = await createTestProjectIn(home.organization.id, "Sibling");
  viewer = await createTestMember("Viewer", { projectId: home.project.id });
  orgViewer = await createTestMember("Viewer", { organizationId: home.organization.id });
  elsewhereAdmin = await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id });

  const tenant = (organizationId: string, projectId: string): Tenant => ({ organizationId, projectId });
  const rows = [
    ...scenarioRows(tenant(home.organization.id, home.project.id), "home"),
    ...scenarioRows(tenant(home.organization.id, sibling.id), "sibling"),
    // Twice in the other organization's project, so a leak would show in every metric.
    ...scenarioRows(tenant(elsewhere.organization.id, elsewhere.project.id), "elsewhere"),
    ...scenarioRows(tenant(elsewhere.organization.id, elsewhere.project.id), "elsewhere-2"),
  ];
  expect((await insertEventRows(db, rows)).size).toBe(rows.length);
  // Every event is in the answer (none is left to the job that a report would not add itself).
  const homeReceived = rows.filter((r) => r.project_id === home.project.id).map((r) => Date.parse(r.received_at));
  homeFreshness = { asOf: new Date(Math.max(...homeReceived)).toISOString(), pendingEvents: 0 };
});

// ── calls ──────────────────────────────────────────────────────────────────────────────

const getAnalytics = (token: string | undefined, projectId: string, query = "") =>
  analyticsRoute(apiRequest("GET", `/api/Projects/${projectId}/analytics${query}`, { token }), routeParams({ projectId }));

async function analytics(query: string, token = viewer.token, projectId = home.project.id): Promise<ProjectAnalytics> {
  const response = await getAnalytics(token, projectId, query);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = JSON.parse(text) as ProjectAnalytics;
  // The documented response schema describes exactly what the route sends.
  expect(projectAnalyticsSchema.parse(body)).toEqual(body);
  return body;
}

// ── the scenario, by hand ──────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/analytics – the hand-computed scenario", () => {
  it("GET /api/Projects/:id/analytics – every metric and breakdown over the window", async () => {
    expect(await analytics(inWindow)).toEqual({
      window: { from, to },
      freshness: homeFreshness,
      filters: noFilters,
      summary: {
        sessions: 4,
        uniqueViewers: 3,
        plays: 4,
        sessionsWithPlay: 3,
        playRate: 3 / 4,
        completedPlays: 2,
        completionRate: 2 / 4,
        averageWatchPercent: 65,
        ctaClicks: 2,
        sessionsWithPlayAndCtaClick: 1,
        ctr: 1 / 3,
        autoplayFailures: 1,
        errors: 1,
      },
      previous: { window: previousWindow, summary: previousSummary },
      series: {
        granularity: "hour",
        points: hourly({
          "2026-03-01T00:00:00.000Z": [1, 0, 0, 0],
          "2026-03-01T10:00:00.000Z": [1, 1, 0, 0],
          "2026-03-02T08:00:00.000Z": [1, 1, 1, 2],
          "2026-03-02T12:00:00.000Z": [1, 2, 1, 0],
        }),
      },
      funnel: funnel(4, [3, 2, 2, 2]),
      chapters: [{ chapterId: "intro", chapterName: "Intro", sessions: 1, plays: 1, share: 1 / 4 }],
      excluded: { botEvents: 3 },
      breakdowns: {
        day: [row("2026-03-01", 2, 1, 0, 0), row("2026-03-02", 2, 3, 2, 2)],
        channel: [row("PROD", 3, 3, 1, 0), row("DEV", 1, 1, 1, 2)],
        // Tied on sessions: more plays first.
        templateVersion: [row("2.0", 2, 3, 2, 2), row("1.0", 2, 1, 0, 0)],
        deviceType: [row("mobile", 2, 3, 1, 0), row("desktop", 2, 1, 1, 2)],
        browser: [row("unknown", 1, 2, 1, 0), row("Firefox", 1, 1, 1, 2), row("Mobile Safari", 1, 1, 0, 0), row("Chrome", 1, 0, 0, 0)],
        os: [row("Android", 1, 2, 1, 0), row("Linux", 1, 1, 1, 2), row("iOS", 1, 1, 0, 0), row("Windows", 1, 0, 0, 0)],
        referrerHost: [row("www.example.com", 4, 4, 2, 2)],
        country: [row("US", 2, 1, 1, 2), row("unknown", 1, 2, 1, 0), row("DE", 1, 1, 0, 0)],
      },
    } satisfies ProjectAnalytics);
  });

  it("GET /api/Projects/:id/analytics – each breakdown's columns sum to the summary totals", async () => {
    const { summary, breakdowns } = await analytics(inWindow);
    type Counts = { sessions: number; plays: number; completions: number; ctaClicks: number };
    const { series } = await analytics(inWindow);
    for (const rows of [...Object.values(breakdowns), series.points]) {
      const sum = (pick: (r: Counts) => number) => (rows as Counts[]).reduce((total, r) => total + pick(r), 0);
      expect(sum((r) => r.sessions)).toBe(summary.sessions);
      expect(sum((r) => r.plays)).toBe(summary.plays);
      expect(sum((r) => r.completions)).toBe(summary.completedPlays);
      expect(sum((r) => r.ctaClicks)).toBe(summary.ctaClicks);
    }
  });

  it("GET /api/Projects/:id/analytics?channel=PROD – S1, S2 and S4 only", async () => {
    expect(await analytics(`${inWindow}&channel=PROD`)).toEqual({
      window: { from, to },
      freshness: homeFreshness,
      filters: { ...noFilters, channel: "PROD" },
      summary: {
        sessions: 3,
        uniqueViewers: 2,
        plays: 3,
        sessionsWithPlay: 2,
        playRate: 2 / 3,
        completedPlays: 1,
        completionRate: 1 / 3,
        averageWatchPercent: 160 / 3,
        ctaClicks: 0,
        sessionsWithPlayAndCtaClick: 0,
        ctr: 0,
        autoplayFailures: 1,
        errors: 1,
      },
      previous: { window: previousWindow, summary: previousSummary },
      series: {
        granularity: "hour",
        points: hourly({
          "2026-03-01T00:00:00.000Z": [1, 0, 0, 0],
          "2026-03-01T10:00:00.000Z": [1, 1, 0, 0],
          "2026-03-02T12:00:00.000Z": [1, 2, 1, 0],
        }),
      },
      funnel: funnel(3, [2, 1, 1, 1]),
      chapters: [],
      excluded: { botEvents: 3 },
      breakdowns: {
        day: [row("2026-03-01", 2, 1, 0, 0), row("2026-03-02", 1, 2, 1, 0)],
        channel: [row("PROD", 3, 3, 1, 0)],
        templateVersion: [row("1.0", 2, 1, 0, 0), row("2.0", 1, 2, 1, 0)],
        deviceType: [row("mobile", 2, 3, 1, 0), row("desktop", 1, 0, 0, 0)],
        browser: [row("unknown", 1, 2, 1, 0), row("Mobile Safari", 1, 1, 0, 0), row("Chrome", 1, 0, 0, 0)],
        os: [row("Android", 1, 2, 1, 0), row("iOS", 1, 1, 0, 0), row("Windows", 1, 0, 0, 0)],
        referrerHost: [row("www.example.com", 3, 3, 1, 0)],
        country: [row("unknown", 1, 2, 1, 0), row("DE", 1, 1, 0, 0), row("US", 1, 0, 0, 0)],
      },
    } satisfies ProjectAnalytics);
  });

  it("GET /api/Projects/:id/analytics?templateId= – S3 and S4 only", async () => {
    const result = await analytics(`${inWindow}&templateId=${template2.templateId}`);
    expect(result.filters).toEqual({ ...noFilters, templateId: template2.templateId });
    expect(result.summary).toEqual({
      sessions: 2,
      uniqueViewers: 2,
      plays: 3,
      sessionsWithPlay: 2,
      playRate: 1,
      completedPlays: 2,
      completionRate: 2 / 3,
      averageWatchPercent: 200 / 3,
      ctaClicks: 2,
      sessionsWithPlayAndCtaClick: 1,
      ctr: 1 / 2,
      autoplayFailures: 0,
      errors: 1,
    });
    expect(result.funnel).toEqual(funnel(3, [2, 2, 2, 2]));
    expect(result.breakdowns.day).toEqual([row("2026-03-01", 0, 0, 0, 0), row("2026-03-02", 2, 3, 2, 2)]);
    expect(result.breakdowns.channel).toEqual([row("PROD", 1, 2, 1, 0), row("DEV", 1, 1, 1, 2)]);
    expect(result.breakdowns.templateVersion).toEqual([row("2.0", 2, 3, 2, 2)]);
  });

  it("GET /api/Projects/:id/analytics?templateId=<UPPERCASE> – the same template", async () => {
    const result = await analytics(`${inWindow}&templateId=${template2.templateId.toUpperCase()}`);
    expect(result.filters.templateId).toBe(template2.templateId);
    expect(result.summary.sessions).toBe(2);
  });

  it("GET /api/Projects/:id/analytics?channel=DEV&templateId= – both filters at once", async () => {
    const both = await analytics(`${inWindow}&channel=DEV&templateId=${template2.templateId}`);
    expect(both.summary).toMatchObject({ sessions: 1, plays: 1, completedPlays: 1, ctaClicks: 2, ctr: 1 });
    const none = await analytics(`${inWindow}&channel=DEV&templateId=${template1.templateId}`);
    expect(none.summary).toEqual(zeroSummary);
  });

  it("GET /api/Projects/:id/analytics?channel=STAGING – no events: counts 0, rates and averages null, days zero-filled", async () => {
    expect(await analytics(`${inWindow}&channel=STAGING`)).toEqual({
      window: { from, to },
      freshness: homeFreshness,
      filters: { ...noFilters, channel: "STAGING" },
      summary: zeroSummary,
      previous: { window: previousWindow, summary: zeroSummary },
      series: { granularity: "hour", points: hourly({}) },
      funnel: funnel(0, [0, 0, 0, 0]),
      chapters: [],
      excluded: { botEvents: 0 },
      breakdowns: { day: [row("2026-03-01", 0, 0, 0, 0), row("2026-03-02", 0, 0, 0, 0)], ...noBreakdowns },
    } satisfies ProjectAnalytics);
  });
});

describe("GET /api/Projects/:id/analytics – the issue 16 filters and series", () => {
  it.each([
    { name: "templateVersion=2.0 – S3 and S4", query: "&templateVersion=2.0", summary: { sessions: 2, plays: 3, completedPlays: 2, ctaClicks: 2 }, botEvents: 0 },
    { name: "templateVersion=9.9 – nothing", query: "&templateVersion=9.9", summary: { sessions: 0, plays: 0 }, botEvents: 0 },
    { name: "deviceType=mobile – S2 and S4", query: "&deviceType=mobile", summary: { sessions: 2, plays: 3, completedPlays: 1, errors: 1 }, botEvents: 0 },
    { name: "deviceType=bot – no metric, only excluded events", query: "&deviceType=bot", summary: zeroSummary, botEvents: 3 },
    { name: "country=US – S1 and S3 (and the bot)", query: "&country=US", summary: { sessions: 2, plays: 1, autoplayFailures: 1, ctaClicks: 2 }, botEvents: 3 },
    { name: "country=unknown – S4, which has none", query: "&country=unknown", summary: { sessions: 1, plays: 2, completedPlays: 1 }, botEvents: 0 },
    {
      name: "every filter at once – S4",
      query: `&channel=PROD&templateId=${template2.templateId}&templateVersion=2.0&deviceType=mobile&country=unknown`,
      summary: { sessions: 1, uniqueViewers: 1, plays: 2 },
      botEvents: 0,
    },
  ])("GET /api/Projects/:id/analytics?$name", async ({ query, summary, botEvents }) => {
    const result = await analytics(`${inWindow}${query}`);
    expect(result.summary).toMatchObject(summary);
    expect(result.excluded).toEqual({ botEvents });
    const named = Object.fromEntries(new URLSearchParams(query).entries());
    expect(result.filters).toEqual({ ...noFilters, ...named });
  });

  it("GET /api/Projects/:id/analytics?granularity=day – one point per UTC day, equal to the day breakdown", async () => {
    const result = await analytics(`${inWindow}&granularity=day`);
    expect(result.series).toEqual({
      granularity: "day",
      points: result.breakdowns.day.map(({ key, ...counts }) => ({ start: `${key}T00:00:00.000Z`, ...counts })),
    });
    expect(result.series.points.map((p) => p.sessions)).toEqual([2, 2]);
  });

  it("GET /api/Projects/:id/analytics – windows past 2 UTC days default to daily points; an hour's window widens to its day, hourly", async () => {
    expect((await analytics("?from=2026-02-28&to=2026-03-03")).series.granularity).toBe("day");
    const day = await analytics("?from=2026-03-01T10:30:00Z&to=2026-03-01T12:00:00.001Z&granularity=hour");
    expect(day.window).toEqual({ from: "2026-03-01T00:00:00.000Z", to: "2026-03-02T00:00:00.000Z" });
    expect(day.series.points).toHaveLength(24);
    expect(day.series.points.filter((p) => p.sessions + p.plays > 0).map((p) => [p.start, p.sessions, p.plays])).toEqual([
      ["2026-03-01T00:00:00.000Z", 1, 0],
      ["2026-03-01T10:00:00.000Z", 1, 1],
    ]);
    expect(day.previous.window).toEqual({ from: "2026-02-28T00:00:00.000Z", to: "2026-03-01T00:00:00.000Z" });
    expect(day.previous.summary).toMatchObject({ sessions: 1, autoplayFailures: 1 });
  });

  it("GET /api/Projects/:id/analytics – the previous period is the one of equal length just before, with the same filters", async () => {
    const result = await analytics("?from=2026-03-02&to=2026-03-03&channel=PROD");
    expect(result.previous.window).toEqual({ from: "2026-03-01T00:00:00.000Z", to: "2026-03-02T00:00:00.000Z" });
    // 03-01 on PROD: S1 and S2 (the bot left out).
    expect(result.previous.summary).toMatchObject({ sessions: 2, plays: 1, autoplayFailures: 1, ctaClicks: 0 });
    expect(result.summary).toMatchObject({ sessions: 1, plays: 2 });
  });
});

describe("GET /api/Projects/:id/analytics – window edges (whole UTC days, from inclusive, to exclusive)", () => {
  it("GET /api/Projects/:id/analytics – a window widens to whole UTC days: 1 ms after midnight still counts the day", async () => {
    expect((await analytics(inWindow)).summary.sessions).toBe(4);
    const later = await analytics("?from=2026-03-01T00:00:00.001Z&to=2026-03-03");
    expect(later.window).toEqual({ from, to });
    expect(later.summary).toMatchObject({ sessions: 4, uniqueViewers: 3, autoplayFailures: 1 });
  });

  it("GET /api/Projects/:id/analytics – an event exactly at `to` does not count; with `to` 1 ms later it does", async () => {
    const result = await analytics("?from=2026-03-01&to=2026-03-03T00:00:00.001Z");
    expect(result.summary).toMatchObject({ sessions: 5, plays: 5, ctaClicks: 3, sessionsWithPlayAndCtaClick: 2 });
    expect(result.breakdowns.day).toEqual([row("2026-03-01", 2, 1, 0, 0), row("2026-03-02", 2, 3, 2, 2), row("2026-03-03", 1, 1, 0, 1)]);
  });

  it("GET /api/Projects/:id/analytics – an event 1 ms before `from` counts when `from` moves back by 1 ms", async () => {
    const result = await analytics("?from=2026-02-28T23:59:59.999Z&to=2026-03-03");
    expect(result.summary).toMatchObject({ sessions: 5, autoplayFailures: 2, plays: 4 });
    expect(result.breakdowns.day.map((r) => [r.key, r.sessions])).toEqual([
      ["2026-02-28", 1],
      ["2026-03-01", 2],
      ["2026-03-02", 2],
    ]);
  });

  it("GET /api/Projects/:id/analytics – a window across midnight covers both UTC dates", async () => {
    const result = await analytics("?from=2026-03-01T12:00:00Z&to=2026-03-02T12:00:00Z");
    expect(result.window).toEqual({ from, to });
    expect(result.summary).toMatchObject({ sessions: 4, plays: 4, completedPlays: 2, ctaClicks: 2 });
    expect(result.breakdowns.day).toEqual([row("2026-03-01", 2, 1, 0, 0), row("2026-03-02", 2, 3, 2, 2)]);
  });

  it("GET /api/Projects/:id/analytics – offsets are converted to UTC", async () => {
    const result = await analytics(`?from=${encodeURIComponent("2026-03-01T01:00:00+01:00")}&to=${encodeURIComponent("2026-03-02T19:00:00-05:00")}`);
    expect(result.window).toEqual({ from, to });
    expect(result.summary.sessions).toBe(4);
  });

  it("GET /api/Projects/:id/analytics – days before the first event are listed as zeros", async () => {
    const result = await analytics("?from=2026-02-26&to=2026-03-01");
    expect(result.breakdowns.day).toEqual([row("2026-02-26", 0, 0, 0, 0), row("2026-02-27", 0, 0, 0, 0), row("2026-02-28", 1, 0, 0, 0)]);
  });
});

describe("GET /api/Projects/:id/analytics – default window and empty projects", () => {
  const dayMs = 86_400_000;

  it("GET /api/Projects/:id/analytics – without from/to: the 30 UTC days ending today", async () => {
    const before = Date.now();
    const result = await analytics("");
    const after = Date.now();
    const ends = [before, after].map((now) => new Date(Math.floor(now / dayMs) * dayMs + dayMs).toISOString());
    expect(ends).toContain(result.window.to);
    expect(Date.parse(result.window.to) - Date.parse(result.window.from)).toBe(30 * dayMs);
    expect(result.breakdowns.day).toHaveLength(30);
    expect(result.breakdowns.day[0]!.key).toBe(result.window.from.slice(0, 10));
    expect(result.breakdowns.day.at(-1)!.key).toBe(new Date(Date.parse(result.window.to) - dayMs).toISOString().slice(0, 10));
  });

  it("GET /api/Projects/:id/analytics?to= – from defaults to 30 days earlier", async () => {
    const result = await analytics("?to=2026-03-03");
    expect(result.window).toEqual({ from: "2026-02-01T00:00:00.000Z", to });
    expect(result.summary.sessions).toBe(5);
  });

  it("GET /api/Projects/:id/analytics?from= (in the future) – to defaults to 30 days later", async () => {
    const result = await analytics("?from=2998-01-01");
    expect(result.window).toEqual({ from: "2998-01-01T00:00:00.000Z", to: "2998-01-31T00:00:00.000Z" });
    expect(result.summary).toEqual(zeroSummary);
  });

  it("GET /api/Projects/:id/analytics – a project without events: zeros, nulls, zero-filled days", async () => {
    const empty = await createTestProjectIn(home.organization.id, "Empty");
    expect(await analytics(inWindow, orgViewer.token, empty.id)).toEqual({
      window: { from, to },
      freshness: { asOf: null, pendingEvents: 0 },
      filters: noFilters,
      summary: zeroSummary,
      previous: { window: previousWindow, summary: zeroSummary },
      series: { granularity: "hour", points: hourly({}) },
      funnel: funnel(0, [0, 0, 0, 0]),
      chapters: [],
      excluded: { botEvents: 0 },
      breakdowns: { day: [row("2026-03-01", 0, 0, 0, 0), row("2026-03-02", 0, 0, 0, 0)], ...noBreakdowns },
    } satisfies ProjectAnalytics);
  });

  it("GET /api/Projects/:id/analytics – a 366-day window (2024 is a leap year) has 366 day rows", async () => {
    const result = await analytics("?from=2024-01-01&to=2025-01-01");
    expect(result.breakdowns.day).toHaveLength(366);
    expect(result.breakdowns.day[0]!.key).toBe("2024-01-01");
    expect(result.breakdowns.day.at(-1)!.key).toBe("2024-12-31");
  });
});

// ── tenants and roles ──────────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/analytics – tenants and roles", () => {
  it("GET /api/Projects/:id/analytics – the other organization's project reports its own events only", async () => {
    // Seeded twice there, under two id sets: every count doubles, nothing of home's appears.
    const result = await analytics(inWindow, elsewhereAdmin.token, elsewhere.project.id);
    expect(result.summary).toMatchObject({ sessions: 8, uniqueViewers: 4, plays: 8, ctaClicks: 4, errors: 2, autoplayFailures: 2 });
  });

  it("GET /api/Projects/:id/analytics – an organization-level Viewer reads the same report", async () => {
    expect(await analytics(inWindow, orgViewer.token)).toEqual(await analytics(inWindow, viewer.token));
  });

  it.each([
    { name: "no token", token: () => undefined, project: () => home.project.id, status: 401 },
    { name: "an unknown token", token: () => `rbk_${"x".repeat(43)}`, project: () => home.project.id, status: 401 },
    { name: "another organization's admin", token: () => elsewhereAdmin.token, project: () => home.project.id, status: 404 },
    { name: "a project of another organization", token: () => viewer.token, project: () => elsewhere.project.id, status: 404 },
    { name: "a project that does not exist", token: () => viewer.token, project: () => randomUUID(), status: 404 },
    { name: "a project id that is not a UUID", token: () => viewer.token, project: () => "not-a-uuid", status: 404 },
  ])("GET /api/Projects/:id/analytics – $name → $status", async ({ token, project, status }) => {
    const response = await getAnalytics(token(), project(), inWindow);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    if (status === 401) expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });
});

// ── bad queries ────────────────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/analytics – bad queries", () => {
  it.each([
    { name: "from not a date", query: "?from=yesterday", path: "from" },
    { name: "from a date that does not exist", query: "?from=2026-02-30", path: "from" },
    { name: "from a local time without a zone", query: "?from=2026-03-01T10:00:00", path: "from" },
    { name: "from empty", query: "?from=", path: "from" },
    { name: "from before 1970", query: "?from=1969-12-31&to=1970-01-02", path: "from" },
    { name: "to a year past 9998", query: "?from=9998-12-01&to=9999-01-01", path: "to" },
    { name: "to not a date", query: "?to=2026-13-01", path: "to" },
    { name: "to equal to from", query: "?from=2026-03-01&to=2026-03-01", path: "to" },
    { name: "to before from", query: "?from=2026-03-02&to=2026-03-01", path: "to" },
    { name: "a 367-day window", query: "?from=2024-01-01&to=2025-01-02", path: "to" },
    { name: "366 days that touch 367 UTC dates", query: "?from=2024-01-01T12:00:00Z&to=2025-01-01T12:00:00Z", path: "to" },
    { name: "only from, more than 366 days ago", query: "?from=2001-01-01", path: "from" },
    { name: "channel in lowercase", query: "?channel=prod", path: "channel" },
    { name: "an unknown channel", query: "?channel=QA", path: "channel" },
    { name: "channel empty", query: "?channel=", path: "channel" },
    { name: "templateId not a UUID", query: "?templateId=abc", path: "templateId" },
    { name: "templateId an SQL fragment", query: `?templateId=${encodeURIComponent("' or 1=1 --")}`, path: "templateId" },
    { name: "templateVersion not major.minor", query: "?templateVersion=1", path: "templateVersion" },
    { name: "templateVersion an SQL fragment", query: `?templateVersion=${encodeURIComponent("1.0' or '1'='1")}`, path: "templateVersion" },
    { name: "templateVersion empty", query: "?templateVersion=", path: "templateVersion" },
    { name: "an unknown deviceType", query: "?deviceType=phone", path: "deviceType" },
    { name: "deviceType in uppercase", query: "?deviceType=Mobile", path: "deviceType" },
    { name: "country in lowercase", query: "?country=fr", path: "country" },
    { name: "country of three letters", query: "?country=FRA", path: "country" },
    { name: "country empty", query: "?country=", path: "country" },
    { name: "an unknown granularity", query: "?granularity=week", path: "granularity" },
    { name: "an hourly series over 32 days", query: "?from=2026-01-01&to=2026-02-02&granularity=hour", path: "granularity" },
    { name: "an unknown parameter", query: "?dimension=country", path: "dimension" },
    { name: "a misspelt parameter", query: "?template_id=x", path: "template_id" },
  ])("GET /api/Projects/:id/analytics – $name → 422", async ({ query, path }) => {
    const response = await getAnalytics(viewer.token, home.project.id, query);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors.map((e) => e.path)).toContain(path);
  });
});
