import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/lib/db";
import { insertEventRows, type EventRow } from "@/lib/ingest/store-events";
import { authorizeProject } from "@/lib/auth/project-access";
import { createTestMember, createTestProject } from "@/testing/factories";
import { sessionRows, viewerHash, type SessionSpec, type Step, type Tenant } from "@/testing/analytics-sessions";
import { maxBreakdownKeys, type BreakdownDimension } from "@/lib/analytics/definitions";
import { getProjectAnalyticsRaw } from "./get-project-analytics-raw";
import { getBotEvents } from "./get-bot-events";
import { getBreakdown } from "./get-breakdown";
import { getChapters } from "./get-chapters";
import { getDaily } from "./get-daily";
import { getQuartileFunnel } from "./get-quartile-funnel";
import { getSummary } from "./get-summary";
import type { AnalyticsFilter } from "./sql";
import { sessionActor } from "@/lib/auth/authenticate";

// The definitions' corner cases, query by query; the hand-computed scenario runs through the
// route in app/api/Projects/[projectId]/analytics/analytics.test.ts.

let db: Db;

beforeAll(async () => {
  db = await getDb();
});

const seededOrganizations = new Map<string, string>();

/** The project as getProjectAnalyticsRaw takes it: authorized for a member of its organization. */
async function accessTo(projectId: string) {
  const { user } = await createTestMember("Viewer", { organizationId: seededOrganizations.get(projectId)! });
  return authorizeProject(db, sessionActor(user), projectId, "analytics.read");
}

async function seededProject(build: (tenant: Tenant) => EventRow[]) {
  const { organization, project } = await createTestProject();
  const rows = build({ organizationId: organization.id, projectId: project.id });
  expect((await insertEventRows(db, rows)).size).toBe(rows.length);
  seededOrganizations.set(project.id, organization.id);
  return project.id;
}

const filterFor = (projectId: string, overrides: Partial<AnalyticsFilter> = {}): AnalyticsFilter => ({
  projectId,
  from: new Date("2026-03-01T00:00:00Z"),
  to: new Date("2026-03-03T00:00:00Z"),
  channel: null,
  templateId: null,
  templateVersion: null,
  deviceType: null,
  country: null,
  granularity: "day",
  ...overrides,
});

const spec = (sessionId: string, start: string, overrides: Partial<SessionSpec> = {}): SessionSpec => ({
  sessionId,
  start,
  channel: "PROD",
  templateId: "template",
  templateVersion: "1.0",
  device: { type: "desktop", os: "Windows", browser: "Chrome" },
  country: "FR",
  viewerHash: null,
  ...overrides,
});

describe("getSummary – corner cases of the definitions", () => {
  it("getSummary – a session started before the window: its plays and clicks count, the session does not, rates stay ≤ 1", async () => {
    const projectId = await seededProject((tenant) => [
      ...sessionRows(tenant, spec("early", "2026-02-28T23:59:00Z"), [
        [0, "session.started", null],
        [120, "video.played", 1],
        [130, "cta.clicked", 1],
      ]),
      ...sessionRows(tenant, spec("watcher", "2026-03-01T10:00:00Z"), [
        [0, "session.started", null],
        [1, "video.played", 1],
      ]),
      // A click without a play (the landing page's CTA) is a click, but no click-through of a play.
      ...sessionRows(tenant, spec("clicker", "2026-03-01T11:00:00Z"), [
        [0, "session.started", null],
        [1, "cta.clicked", null],
      ]),
    ]);
    expect(await getSummary(db, filterFor(projectId))).toMatchObject({
      sessions: 2,
      plays: 2,
      sessionsWithPlay: 1,
      playRate: 1 / 2,
      ctaClicks: 2,
      sessionsWithPlayAndCtaClick: 0,
      ctr: 0,
    });
  });

  it("getSummary – a resent session.started counts once; video.played without a playback id is no play", async () => {
    const projectId = await seededProject((tenant) =>
      sessionRows(tenant, spec("twice", "2026-03-01T10:00:00Z", { viewerHash: viewerHash(7) }), [
        [0, "session.started", null],
        [1, "session.started", null],
        [2, "video.played", null],
        [3, "video.played", 1],
        [4, "video.played", 1],
      ]),
    );
    expect(await getSummary(db, filterFor(projectId))).toMatchObject({ sessions: 1, uniqueViewers: 1, plays: 1, playRate: 1 });
  });

  it("getSummary – percentages: out-of-range clamped, non-numbers ignored, playbacks never played left out", async () => {
    const projectId = await seededProject((tenant) =>
      sessionRows(tenant, spec("odd", "2026-03-01T10:00:00Z"), [
        [0, "session.started", null],
        [1, "video.played", 1],
        [2, "video.incomplete", 1, { position_ms: 1, percent: 150 }],
        [3, "video.played", 2],
        [4, "video.incomplete", 2, { position_ms: 1, percent: "90" }],
        [5, "video.progressed", 3, { position_ms: 1, percent: 75 }],
        [6, "video.completed", 3],
      ]),
    );
    const filter = filterFor(projectId);
    // Play 1 watched 100 (clamped) but never completed; play 2 has no numeric percent → 0; playback 3 never played.
    expect(await getSummary(db, filter)).toMatchObject({ plays: 2, completedPlays: 0, completionRate: 0, averageWatchPercent: 50 });
    expect(await getQuartileFunnel(db, filter)).toEqual({
      plays: 2,
      steps: [
        { percent: 25, count: 0, share: 0 },
        { percent: 50, count: 0, share: 0 },
        { percent: 75, count: 0, share: 0 },
        { percent: 100, count: 0, share: 0 },
      ],
    });
  });
});

describe("getQuartileFunnel – quartile boundaries", () => {
  it("getQuartileFunnel – a play reaching exactly 25, 50 or 75 counts at that step and below; completion at every step", async () => {
    const projectId = await seededProject((tenant) =>
      sessionRows(tenant, spec("steps", "2026-03-01T10:00:00Z"), [
        [0, "session.started", null],
        ...([25, 50, 75] as const).flatMap((percent, i): Step[] => [
          [1 + i * 10, "video.played", i + 1],
          [2 + i * 10, "video.progressed", i + 1, { position_ms: 1000, percent }],
        ]),
        [40, "video.played", 4],
        [41, "video.completed", 4],
        [50, "video.played", 5],
      ]),
    );
    const step = (percent: 25 | 50 | 75 | 100, count: number) => ({ percent, count, share: count / 5 });
    expect(await getQuartileFunnel(db, filterFor(projectId))).toEqual({
      plays: 5,
      steps: [step(25, 4), step(50, 3), step(75, 2), step(100, 1)],
    });
  });
});

describe("getBreakdown – keys", () => {
  it("getBreakdown – a session counts under its first session.started; missing and empty values are unknown", async () => {
    const projectId = await seededProject((tenant) => [
      ...sessionRows(tenant, spec("moved", "2026-03-01T23:59:59Z"), [[0, "session.started", null]]),
      ...sessionRows(tenant, spec("moved", "2026-03-02T00:00:05Z", { device: { type: "mobile", os: null, browser: null } }), [
        [0, "session.started", null],
        [1, "video.played", 1],
      ]),
      ...sessionRows(tenant, spec("bare", "2026-03-02T10:00:00Z", { channel: null, templateVersion: "", device: null, country: null }), [
        [0, "session.started", null],
        [1, "cta.clicked", null],
      ]),
    ]);
    const filter = filterFor(projectId);
    const keys = async (dimension: BreakdownDimension) =>
      (await getBreakdown(db, filter, dimension)).map(({ key, sessions, plays, ctaClicks }) => [key, sessions, plays, ctaClicks]);
    expect(await keys("day")).toEqual([
      ["2026-03-02", 1, 1, 1],
      ["2026-03-01", 1, 0, 0],
    ]);
    expect(await keys("deviceType")).toEqual([
      ["desktop", 1, 0, 0],
      ["unknown", 1, 0, 1],
      ["mobile", 0, 1, 0],
    ]);
    expect(await keys("channel")).toEqual([
      ["PROD", 1, 1, 0],
      ["unknown", 1, 0, 1],
    ]);
    expect(await keys("templateVersion")).toEqual([
      ["1.0", 1, 1, 0],
      ["unknown", 1, 0, 1],
    ]);
    expect(await keys("country")).toEqual([
      ["FR", 1, 1, 0],
      ["unknown", 1, 0, 1],
    ]);
  });

  it.each(["country; drop table analytics_events", "toString", "__proto__", "constructor", "session_id"])(
    "getBreakdown – dimension %j is refused before any SQL runs",
    async (dimension) => {
      await expect(getBreakdown(db, filterFor(randomUUID()), dimension as BreakdownDimension)).rejects.toThrow(RangeError);
    },
  );

  it(`getBreakdown – at most ${maxBreakdownKeys} keys, most sessions first`, async () => {
    const projectId = await seededProject((tenant) => [
      ...Array.from({ length: maxBreakdownKeys + 5 }, (_, i) =>
        sessionRows(tenant, spec(`s${i}`, "2026-03-01T10:00:00Z", { templateVersion: `1.${i}` }), [[0, "session.started", null]]),
      ).flat(),
      ...sessionRows(tenant, spec("popular", "2026-03-01T11:00:00Z", { templateVersion: "1.9999" }), [[0, "session.started", null]]),
      ...sessionRows(tenant, spec("popular-2", "2026-03-01T11:00:00Z", { templateVersion: "1.9999" }), [[0, "session.started", null]]),
    ]);
    const rows = await getBreakdown(db, filterFor(projectId), "templateVersion");
    expect(rows).toHaveLength(maxBreakdownKeys);
    expect(rows[0]).toEqual({ key: "1.9999", sessions: 2, plays: 0, completions: 0, ctaClicks: 0 });
    // Ties in byte order, whatever the database's collation.
    expect(rows.slice(1, 4).map((r) => r.key)).toEqual(["1.0", "1.1", "1.10"]);
  });
});

describe("getDaily – the day series", () => {
  it("getDaily – UTC dates whatever the database session's time zone", async () => {
    const projectId = await seededProject((tenant) => [
      ...sessionRows(tenant, spec("late", "2026-03-01T23:30:00Z"), [[0, "session.started", null]]),
      ...sessionRows(tenant, spec("early", "2026-03-02T00:30:00Z"), [[0, "session.started", null]]),
    ]);
    const days = await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Kiritimati'`);
      return getDaily(tx, filterFor(projectId));
    });
    expect(days.map((d) => [d.key, d.sessions])).toEqual([
      ["2026-03-01", 1],
      ["2026-03-02", 1],
    ]);
  });

  it("getDaily – an empty window has no rows; more than 366 days is refused", async () => {
    const projectId = randomUUID();
    const from = new Date("2026-03-01T00:00:00Z");
    expect(await getDaily(db, filterFor(projectId, { from, to: from }))).toEqual([]);
    await expect(getDaily(db, filterFor(projectId, { from, to: new Date("2027-03-03T00:00:00Z") }))).rejects.toThrow(RangeError);
  });
});

describe("getProjectAnalyticsRaw – all reports agree", () => {
  it("getProjectAnalyticsRaw – every breakdown sums to the summary on a mixed data set", async () => {
    const channels = ["PROD", "DEV", null];
    const devices = [{ type: "desktop", os: "Windows", browser: "Edge" }, { type: "tablet", os: "iPadOS", browser: null }, null];
    const projectId = await seededProject((tenant) =>
      Array.from({ length: 24 }, (_, i) => {
        const steps: Step[] = [[0, "session.started", null]];
        for (let playback = 1; playback <= i % 3; playback++) {
          steps.push([playback * 10, "video.played", playback]);
          if ((i + playback) % 2 === 0) steps.push([playback * 10 + 5, "video.completed", playback]);
          if (i % 4 === 0) steps.push([playback * 10 + 6, "cta.clicked", playback]);
        }
        return sessionRows(
          tenant,
          spec(`mixed-${i}`, new Date(Date.parse("2026-03-01T00:00:00Z") + i * 7_200_000).toISOString(), {
            channel: channels[i % 3]!,
            device: devices[i % 3]!,
            country: i % 5 === 0 ? null : ["FR", "BR"][i % 2]!,
            templateVersion: `1.${i % 4}`,
          }),
          steps,
        );
      }).flat(),
    );
    const { summary, breakdowns } = await getProjectAnalyticsRaw(db, await accessTo(projectId), filterFor(projectId));
    expect(summary.sessions).toBe(24);
    expect(summary.plays).toBe(24);
    for (const rows of Object.values(breakdowns)) {
      const total = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((sum, r) => sum + pick(r), 0);
      expect([total((r) => r.sessions), total((r) => r.plays), total((r) => r.completions), total((r) => r.ctaClicks)]).toEqual([
        summary.sessions,
        summary.plays,
        summary.completedPlays,
        summary.ctaClicks,
      ]);
    }
  });
});

describe("getChapters – chapter.entered", () => {
  it("getChapters – ordered by the lowest position; newest name; a session without a play counts, a bot does not", async () => {
    const chapter = (id: string, name: string, position: number) => ({ chapter_id: id, chapter_name: name, position_ms: position });
    const projectId = await seededProject((tenant) => [
      ...sessionRows(tenant, spec("first", "2026-03-01T10:00:00Z"), [
        [0, "session.started", null],
        [1, "video.played", 1],
        [2, "chapter.entered", 1, chapter("offer", "Offer (old name)", 5000)],
        [3, "chapter.entered", 1, chapter("intro", "Intro", 0)],
        // Entered twice by one play: still one play.
        [4, "chapter.entered", 1, chapter("offer", "Offer", 5000)],
      ]),
      // A chapter.entered without a playback id: its session counts, no play.
      ...sessionRows(tenant, spec("no-play", "2026-03-01T11:00:00Z"), [
        [0, "session.started", null],
        [1, "chapter.entered", null, chapter("intro", "Intro", 0)],
      ]),
      ...sessionRows(tenant, spec("crawler", "2026-03-01T12:00:00Z", { isBot: true }), [
        [0, "session.started", null],
        [1, "video.played", 1],
        [2, "chapter.entered", 1, chapter("outro", "Outro", 9000)],
      ]),
    ]);
    expect(await getChapters(db, filterFor(projectId), 1)).toEqual([
      { chapterId: "intro", chapterName: "Intro", sessions: 2, plays: 1, share: 1 },
      { chapterId: "offer", chapterName: "Offer", sessions: 1, plays: 1, share: 1 },
    ]);
    expect(await getBotEvents(db, filterFor(projectId))).toBe(3);
    expect(await getChapters(db, filterFor(projectId), 0)).toMatchObject([{ share: null }, { share: null }]);
  });
});
