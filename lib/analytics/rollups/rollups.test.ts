import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { authorizeProject } from "@/lib/auth/project-access";
import { getDb, type Db } from "@/lib/db";
import { insertEventRows, type EventRow } from "@/lib/ingest/store-events";
import { createTestMember, createTestProject } from "@/testing/factories";
import { rollUpEverything } from "@/testing/rollups-caught-up";
import { sessionRows, viewerHash, type SessionSpec, type Step } from "@/testing/analytics-sessions";
import { getProjectAnalytics, scopeOf } from "../get-project-analytics";
import { getProjectAnalyticsRaw } from "@/testing/oracles/analytics-raw/get-project-analytics-raw";
import { getHeatmapDeltas } from "@/testing/oracles/analytics-raw/get-heatmap-seconds";
import type { AnalyticsQuery } from "../contract";
import { readHeatmap } from "./read";
import { readReportTail } from "./pending";
import { refreshRollups } from "./refresh";
import { sessionActor } from "@/lib/auth/authenticate";

// The rollups against the raw-event reference (testing/oracles/analytics-raw): on sessions whose events all
// fall on one UTC day, attributing a session or a play to the day it started changes nothing,
// so for whole-day windows the two must agree on every number. Events go in shuffled, in
// several transactions, with the rollup job run between some of them: a session's events are
// rolled up in pieces, which is what the job's subtract-what-was-counted step is for.

let db: Db;

beforeAll(async () => {
  db = await getDb();
});

const firstDay = Date.UTC(2026, 2, 1);
const dayMs = 86_400_000;

const stepsArbitrary: fc.Arbitrary<Step[]> = fc
  .record({
    withStart: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
    autoplayFailed: fc.boolean(),
    plays: fc.array(
      fc.record({
        pauseAt: fc.option(fc.integer({ min: 1, max: 19 })),
        resumed: fc.boolean(),
        reached: fc.integer({ min: 0, max: 20 }),
        end: fc.constantFrom("completed", "incomplete", "errored", "none"),
        chapters: fc.subarray(["intro", "offer", "outro"]),
        extraSpan: fc.option(fc.tuple(fc.integer({ min: -2, max: 25 }), fc.integer({ min: -2, max: 25 }))),
      }),
      { maxLength: 2 },
    ),
    clicked: fc.boolean(),
  })
  .map(({ withStart, autoplayFailed, plays, clicked }) => {
    const steps: Step[] = [];
    let t = 0;
    if (withStart) steps.push([t, "session.started", null]);
    if (autoplayFailed) steps.push([(t += 1), "autoplay.failed", null]);
    plays.forEach((play, index) => {
      const playbackId = index + 1;
      steps.push([(t += 1), "video.played", playbackId]);
      const spans: [number, number][] = [];
      if (play.pauseAt !== null) {
        steps.push([(t += 1), "video.paused", playbackId, { position_ms: play.pauseAt * 1000, watched: [[0, play.pauseAt * 1000]] }]);
        if (play.resumed) steps.push([(t += 1), "video.played", playbackId, { position_ms: play.pauseAt * 1000 }]);
      }
      for (const chapter of play.chapters) steps.push([(t += 1), "chapter.entered", playbackId, { chapter_id: chapter, chapter_name: chapter.toUpperCase(), position_ms: chapter.length * 1000 }]);
      for (const percent of [25, 50, 75]) if (play.reached * 5 >= percent) steps.push([(t += 1), "video.progressed", playbackId, { position_ms: percent * 200, percent }]);
      spans.push([play.pauseAt === null ? 0 : play.pauseAt * 1000, play.reached * 1000]);
      if (play.extraSpan) spans.push([play.extraSpan[0] * 1000, play.extraSpan[1] * 1000]);
      if (play.end === "completed") steps.push([(t += 1), "video.completed", playbackId, { duration_ms: 20_000, percent: 100, watched: spans }]);
      else if (play.end === "incomplete") steps.push([(t += 1), "video.incomplete", playbackId, { position_ms: play.reached * 1000, percent: play.reached * 5, watched: spans }]);
      else if (play.end === "errored") steps.push([(t += 1), "video.errored", playbackId]);
    });
    if (clicked) steps.push([(t += 1), "cta.clicked", plays.length > 0 ? 1 : null]);
    return steps;
  });

const specArbitrary = fc.record({
  day: fc.integer({ min: 0, max: 2 }),
  second: fc.integer({ min: 0, max: 86_400 - 600 }),
  channel: fc.constantFrom("PROD", "DEV", null),
  templateVersion: fc.constantFrom("1.0", "2.0"),
  device: fc.constantFrom(
    { type: "desktop", os: "Windows", browser: "Chrome" },
    { type: "mobile", os: "iOS", browser: "Mobile Safari" },
    { type: "mobile", os: "Android", browser: "Chrome" },
    null,
  ),
  country: fc.constantFrom("FR", "US", null),
  viewer: fc.option(fc.integer({ min: 1, max: 6 })),
  isBot: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
});

const datasetArbitrary = fc.record({
  sessions: fc.array(fc.tuple(specArbitrary, stepsArbitrary), { minLength: 1, maxLength: 25 }),
  order: fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
  cuts: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
});

const filterCases: Pick<AnalyticsQuery, "channel" | "templateVersion" | "deviceType" | "country">[] = [
  { channel: null, templateVersion: null, deviceType: null, country: null },
  { channel: "PROD", templateVersion: null, deviceType: null, country: null },
  { channel: null, templateVersion: null, deviceType: "mobile", country: "FR" },
  { channel: "DEV", templateVersion: "1.0", deviceType: null, country: "unknown" },
];

/** Rows in a deterministic shuffle, cut into a few transactions, the rollup job run after some. */
async function store(rows: EventRow[], order: number[], cuts: number[]): Promise<void> {
  const shuffled = rows.map((row, i) => ({ row, rank: order[i % order.length]! * 1000 + i })).sort((a, b) => a.rank - b.rank).map(({ row }) => row);
  const pieces = Math.min(shuffled.length, 1 + cuts.length);
  const size = Math.ceil(shuffled.length / pieces);
  for (let start = 0, piece = 0; start < shuffled.length; start += size, piece++) {
    expect((await insertEventRows(db, shuffled.slice(start, start + size))).size).toBe(Math.min(size, shuffled.length - start));
    if ((cuts[piece] ?? 1) > 1) await refreshRollups(db);
  }
}

describe("rollups agree with the raw-event reports", () => {
  it("every number of the report and the heatmap, for whole-day windows and any filters, however the events arrive", async () => {
    await fc.assert(
      fc.asyncProperty(datasetArbitrary, async ({ sessions, order, cuts }) => {
        const { organization, project } = await createTestProject();
        const { user } = await createTestMember("Viewer", { organizationId: organization.id });
        const actor = sessionActor(user);
        const access = await authorizeProject(db, actor, project.id, "analytics.read");
        const viewer = { db, actor, access };
        const templateId = randomUUID();
        const rows = sessions.flatMap(([spec, steps]) => {
          const sessionSpec: SessionSpec = {
            sessionId: randomUUID(),
            start: new Date(firstDay + spec.day * dayMs + spec.second * 1000).toISOString(),
            channel: spec.channel,
            templateId,
            templateVersion: spec.templateVersion,
            device: spec.device,
            country: spec.country,
            viewerHash: spec.viewer === null ? null : viewerHash(spec.viewer),
            isBot: spec.isBot,
          };
          return sessionRows({ organizationId: organization.id, projectId: project.id }, sessionSpec, steps);
        });
        await store(rows, order, cuts);

        for (const filters of filterCases) {
          for (const [fromDay, days, granularity] of [[0, 3, "day"], [1, 1, "hour"]] as const) {
            const query: AnalyticsQuery = {
              from: new Date(firstDay + fromDay * dayMs),
              to: new Date(firstDay + (fromDay + days) * dayMs),
              templateId: null,
              granularity,
              ...filters,
            };
            const fromRollups = await getProjectAnalytics(viewer, query);
            const fromRaw = await getProjectAnalyticsRaw(db, access, query);
            const { averageWatchPercent: rollupAverage, ...rollupSummary } = fromRollups.summary;
            const { averageWatchPercent: rawAverage, ...rawSummary } = fromRaw.summary;
            expect(rollupSummary).toEqual(rawSummary);
            if (rawAverage === null) expect(rollupAverage).toBeNull();
            else expect(rollupAverage).toBeCloseTo(rawAverage, 9);
            expect(fromRollups.previous.summary.sessions).toBe(fromRaw.previous.summary.sessions);
            expect(fromRollups.series).toEqual(fromRaw.series);
            expect(fromRollups.funnel).toEqual(fromRaw.funnel);
            expect(fromRollups.chapters).toEqual(fromRaw.chapters);
            expect(fromRollups.excluded).toEqual(fromRaw.excluded);
            expect(fromRollups.breakdowns).toEqual(fromRaw.breakdowns);

            const rawHeatmap = await getHeatmapDeltas(db, { ...query, projectId: project.id, templateId }, null);
            const { change: tail } = await readReportTail(db, project.id);
            const rollupHeatmap = await readHeatmap(db, { ...scopeOf(project.id, query, query.from, query.to), templateId }, tail);
            expect(rollupHeatmap.plays).toBe(rawHeatmap.plays);
            expect(rollupHeatmap.furthestMs).toBe(rawHeatmap.furthestMs);
            expect(runningSums(rollupHeatmap.deltas)).toEqual(runningSums(rawHeatmap.deltas));
          }
        }
        // Once the job has caught up, the rollups alone give the same report.
        await rollUpEverything(db, project.id);
        const wholeWindow: AnalyticsQuery = { from: new Date(firstDay), to: new Date(firstDay + 3 * dayMs), templateId: null, granularity: "day", ...filterCases[0]! };
        const caughtUp = await getProjectAnalytics(viewer, wholeWindow);
        expect(caughtUp.freshness.pendingEvents).toBe(0);
        const raw = await getProjectAnalyticsRaw(db, access, wholeWindow);
        expect(caughtUp.freshness.asOf).toBe(raw.freshness.asOf);
        const comparable = ({ summary, series, funnel, chapters, excluded, breakdowns }: typeof raw) => ({
          summary: { ...summary, averageWatchPercent: null },
          series,
          funnel,
          chapters,
          excluded,
          breakdowns,
        });
        expect(comparable(caughtUp)).toEqual(comparable(raw));
      }),
      { numRuns: 12, seed: 16, endOnFailure: true },
    );
  }, 300_000);
});

/** The heatmap's per-second counts from its changes. */
function runningSums(deltas: Map<number, [number, number, number]>): number[][] {
  const seconds = [...deltas.keys()];
  const last = seconds.length === 0 ? -1 : Math.max(...seconds);
  const sums: number[][] = [];
  const running = [0, 0];
  for (let second = Math.min(0, ...seconds); second <= last; second++) {
    const [views, watched, drops] = deltas.get(second) ?? [0, 0, 0];
    running[0]! += views;
    running[1]! += watched;
    sums.push([running[0]!, running[1]!, drops]);
  }
  return sums;
}
