import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionRows, type SessionSpec, type Step, type Tenant } from "@/testing/analytics-sessions";
import { engagementHeatmapSchema, type EngagementHeatmap } from "@/lib/analytics/contract";
import { getDb } from "@/lib/db";
import { insertEventRows } from "@/lib/ingest/store-events";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { makeLottie } from "@/testing/fixtures/lottie-builders";
import { upload, type TemplateJson } from "@/testing/template-api";
import { GET as heatmapRoute } from "./route";

// ── the scenario ───────────────────────────────────────────────────────────────────────
//
// A 10 s template (300 frames at 30 fps) with two markers: Intro 0–3 s, Offer 3–10 s.
//   A  desktop: watched [0, 3000] (paused), then [3000, 10000] (completed): every second once.
//   B  mobile: watched [0, 2000] (paused), then [1000, 4200] and [6000, 6500] (incomplete: it
//      went back 1 s, then skipped 4.2–6 s): seconds 0–4 and 6; second 1 twice; left in second 6.
//   C  desktop: a span with from = to, and a pause without spans: no play of the heatmap.
//   E  desktop: [9500, 12000] (incomplete): clipped to the duration, second 9; left in second 9.
//   A bot's play and another template's play with spans: never counted.
// By hand: plays 3 (A, B, E).
//   second        0  1  2  3  4  5  6  7  8  9
//   watchedPlays  2  2  2  2  2  1  2  1  1  2
//   views         2  3  2  2  2  1  2  1  1  2
//   dropOffs      0  0  0  0  0  0  1  0  0  1

const from = "2026-03-01T00:00:00.000Z";
const to = "2026-03-02T00:00:00.000Z";
const inWindow = `from=${from}&to=${to}`;

let projectId: string;
let token: string;
let template: TemplateJson;
let newestReceivedAt: string;
const otherTemplateId = randomUUID();

beforeAll(async () => {
  const { organization, project } = await createTestProject();
  projectId = project.id;
  const admin = await createTestMember("ProjectManager", { projectId });
  token = admin.token;
  const lottie = makeLottie({
    fr: 30,
    ip: 0,
    op: 300,
    markers: [
      { tm: 0, cm: "Intro", dr: 90 },
      { tm: 90, cm: "Offer", dr: 0 },
    ],
  } as Parameters<typeof makeLottie>[0]);
  const uploaded = await upload(token, projectId, [
    { name: "name", value: "Heatmap" },
    { name: "kind", value: "LottieStandalone" },
    { name: "templateJson", filename: "animation.json", content: JSON.stringify(lottie), contentType: "application/json" },
  ]);
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  template = (await uploaded.json()) as TemplateJson;

  const tenant: Tenant = { organizationId: organization.id, projectId };
  const spec = (sessionId: string, overrides: Partial<SessionSpec> = {}): SessionSpec => ({
    sessionId,
    start: "2026-03-01T10:00:00.000Z",
    channel: "PROD",
    templateId: template.id,
    templateVersion: "1.0",
    device: { type: "desktop", os: "Windows", browser: "Chrome" },
    country: "FR",
    viewerHash: null,
    ...overrides,
  });
  const watched = (spans: [number, number][]) => ({ watched: spans });
  const playA: Step[] = [
    [0, "video.played", 1],
    [3, "video.paused", 1, { position_ms: 3000, ...watched([[0, 3000]]) }],
    [10, "video.completed", 1, { duration_ms: 10_000, percent: 100, ...watched([[3000, 10_000]]) }],
  ];
  const rows = [
    ...sessionRows(tenant, spec("a"), playA),
    ...sessionRows(tenant, spec("b", { device: { type: "mobile", os: "iOS", browser: "Mobile Safari" } }), [
      [0, "video.played", 1],
      [2, "video.paused", 1, { position_ms: 2000, ...watched([[0, 2000]]) }],
      [9, "video.incomplete", 1, { position_ms: 6500, percent: 65, ...watched([[1000, 4200], [6000, 6500]]) }],
    ]),
    ...sessionRows(tenant, spec("c"), [
      [0, "video.played", 1],
      [1, "video.paused", 1, { position_ms: 5000, ...watched([[5000, 5000]]) }],
      [2, "video.paused", 1, { position_ms: 5000 }],
    ]),
    ...sessionRows(tenant, spec("e"), [
      [0, "video.played", 1],
      [3, "video.incomplete", 1, { position_ms: 10_000, percent: 100, ...watched([[9500, 12_000]]) }],
    ]),
    ...sessionRows(tenant, spec("bot", { device: { type: "bot", os: null, browser: null }, isBot: true }), playA),
    ...sessionRows(tenant, spec("other-template", { templateId: otherTemplateId }), playA),
  ];
  expect((await insertEventRows(await getDb(), rows)).size).toBe(rows.length);
  newestReceivedAt = new Date(Math.max(...rows.map((row) => Date.parse(row.received_at)))).toISOString();
});

const getHeatmap = (query: string, as = token, project = projectId) =>
  heatmapRoute(apiRequest("GET", `/api/Projects/${project}/analytics/heatmap?${query}`, { token: as }), routeParams({ projectId: project }));

async function heatmap(query: string): Promise<EngagementHeatmap> {
  const response = await getHeatmap(query);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as EngagementHeatmap;
  expect(engagementHeatmapSchema.parse(body)).toEqual(body);
  return body;
}

const seconds = (plays: number, watchedPlays: number[], views: number[], dropOffs: number[]) =>
  watchedPlays.map((watched, second) => ({
    second,
    watchedPlays: watched,
    share: plays === 0 ? null : watched / plays,
    views: views[second]!,
    rewatches: views[second]! - watched,
    dropOffs: dropOffs[second]!,
  }));

describe("GET /api/Projects/:id/analytics/heatmap – the hand-computed scenario", () => {
  it("GET /api/Projects/:id/analytics/heatmap – every second of the template", async () => {
    expect(await heatmap(`${inWindow}&templateId=${template.id}`)).toEqual({
      window: { from, to },
      freshness: { asOf: newestReceivedAt, pendingEvents: 0 },
      filters: { channel: null, templateId: template.id, templateVersion: null, deviceType: null, country: null },
      templateId: template.id,
      durationMs: 10_000,
      plays: 3,
      seconds: seconds(
        3,
        [2, 2, 2, 2, 2, 1, 2, 1, 1, 2],
        [2, 3, 2, 2, 2, 1, 2, 1, 1, 2],
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 1],
      ),
      chapters: [
        { chapterId: "intro", chapterName: "Intro", startMs: 0, endMs: 3000 },
        { chapterId: "offer", chapterName: "Offer", startMs: 3000, endMs: 10_000 },
      ],
    } satisfies EngagementHeatmap);
  });

  it("GET /api/Projects/:id/analytics/heatmap?deviceType=mobile – B alone", async () => {
    const result = await heatmap(`${inWindow}&templateId=${template.id}&deviceType=mobile`);
    expect(result.plays).toBe(1);
    expect(result.seconds.map((s) => s.views)).toEqual([1, 2, 1, 1, 1, 0, 1, 0, 0, 0]);
    expect(result.seconds.map((s) => s.dropOffs)).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
  });

  it("GET /api/Projects/:id/analytics/heatmap – a window without events: every second zero, shares null", async () => {
    const result = await heatmap(`from=2026-04-01&to=2026-04-02&templateId=${template.id}`);
    expect(result.plays).toBe(0);
    expect(result.seconds).toEqual(seconds(0, Array(10).fill(0), Array(10).fill(0), Array(10).fill(0)));
  });
});

describe("GET /api/Projects/:id/analytics/heatmap – bad requests", () => {
  it.each([
    { name: "without templateId", query: inWindow, status: 422 },
    { name: "templateId not a UUID", query: `${inWindow}&templateId=abc`, status: 422 },
    { name: "granularity (not a heatmap parameter)", query: `${inWindow}&templateId=${randomUUID()}&granularity=day`, status: 422 },
    { name: "an unknown country form", query: `${inWindow}&templateId=${randomUUID()}&country=france`, status: 422 },
    { name: "a template of no project", query: `${inWindow}&templateId=${randomUUID()}`, status: 404 },
    { name: "a template id seen only in events", query: `${inWindow}&templateId=${otherTemplateId}`, status: 404 },
  ])("GET /api/Projects/:id/analytics/heatmap – $name → $status", async ({ query, status }) => {
    const response = await getHeatmap(query);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("GET /api/Projects/:id/analytics/heatmap – another organization's member → 404", async () => {
    const elsewhere = await createTestProject();
    const stranger = await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id });
    const response = await getHeatmap(`${inWindow}&templateId=${template.id}`, stranger.token);
    expect(response.status).toBe(404);
  });
});
