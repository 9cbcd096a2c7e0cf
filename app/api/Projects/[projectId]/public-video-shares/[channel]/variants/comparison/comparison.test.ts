import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionRows, viewerHash, type Step, type Tenant } from "@/testing/analytics-sessions";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import type { ProjectAnalytics } from "@/lib/analytics/contract";
import { refreshRollups } from "@/lib/analytics/rollups/refresh";
import { randomBase62, sha256Hex } from "@/lib/auth/secrets";
import { getDb, type Db } from "@/lib/db";
import { apiCredentials, publicVideoShares, shareSlugs, shareVariants, templates, type Channel } from "@/lib/db/schema";
import { variantComparisonSchema, type VariantComparison } from "@/lib/experiments/contract";
import { twoProportionTest, twoSidedPValue, wilsonInterval } from "@/lib/experiments/statistics";
import { insertEventRows, type EventRow } from "@/lib/ingest/store-events";
import { GET as analyticsRoute } from "../../../../analytics/route";
import { GET as comparisonRoute } from "./route";

// ── the scenario ───────────────────────────────────────────────────────────────────────
//
// The PROD share runs A (template "Welcome" 1.0, control, 50) against B ("Welcome" 2.0, 50),
// started 2026-03-01 09:00 UTC. Its sessions, each a viewer of its own, alternate between
// 03-01 (even i) and 03-02 (odd i):
//   A  200 sessions with one play each, the first 80 completed; the first 20 clicked the CTA
//      (session 0 twice); 10 more sessions without a play.
//   B  200 sessions with one play each, the first 120 completed; the first 22 clicked the CTA.
// By hand, over the test (the default window, 03-01 to now):
//   A  sessions 210, plays 200, completed 80 (0.40), playing sessions that clicked 20 of 200
//      (0.10), CTA clicks 21.
//   B  sessions 200, plays 200, completed 120 (0.60), clicked 22 of 200 (0.11), CTA clicks 22.
//   completion B vs A: pooled 200/400 = 0.5, SE = √(0.25 · 2/200) = 0.05, z = 0.2 / 0.05 = 4,
//   p = 2·(1 − Φ(4)) = 0.0000633: significant. CTR: z = 0.01 / √(0.105 · 0.895 · 2/200) = 0.326,
//   p = 0.744: not significant.
// Never counted by default: A on 02-28 (before the test: 30 plays, none completed), A on the
// DEV channel, bots playing B, a template outside the test on PROD, and the same template ids
// in another organization's project.
// The STAGING share tests A (70) against B (30) with 5 sessions each: not enough data. The DEV
// share has three variants (A, B, and C which nobody played): each test at α = 0.05 / 2.

const startedAt = new Date("2026-03-01T09:00:00.000Z");
const day1 = Date.parse("2026-03-01T10:00:00.000Z");
const day2 = Date.parse("2026-03-02T10:00:00.000Z");

type Arm = { templateId: string; templateVersion: string; channel: Channel };
type Session = { completed?: boolean; clicks?: number; played?: boolean; isBot?: boolean; at: number };

let db: Db;
let projectId: string;
let viewerToken: string;
let outsiderToken: string;
let siblingId: string;
let shareIds: Record<Channel, string>;
const template = { a: randomUUID(), b: randomUUID(), c: randomUUID(), outside: randomUUID() };
let sessionCount = 0;

function sessionOf(tenant: Tenant, arm: Arm, { completed = false, clicks = 0, played = true, isBot = false, at }: Session): EventRow[] {
  const steps: Step[] = [[0, "session.started", null]];
  if (played) steps.push([1, "video.played", 1]);
  if (completed) steps.push([20, "video.completed", 1]);
  for (let click = 0; click < clicks; click++) steps.push([21 + click, "cta.clicked", 1]);
  sessionCount += 1;
  return sessionRows(
    tenant,
    {
      sessionId: `s-${sessionCount}`,
      start: new Date(at).toISOString(),
      channel: arm.channel,
      templateId: arm.templateId,
      templateVersion: arm.templateVersion,
      device: { type: isBot ? "bot" : "desktop", os: "Linux", browser: "Firefox" },
      country: "FR",
      viewerHash: viewerHash(sessionCount),
      isBot,
    },
    steps,
  );
}

/** `count` sessions of the arm, alternating between the two days (a minute apart), shaped by their index. */
function sessions(tenant: Tenant, arm: Arm, count: number, shape: (i: number) => Omit<Session, "at">, days = [day1, day2]): EventRow[] {
  return Array.from({ length: count }, (_, i) => sessionOf(tenant, arm, { ...shape(i), at: days[i % days.length]! + i * 60_000 })).flat();
}

async function createShare(targetProjectId: string, channel: Channel): Promise<string> {
  const [credential] = await db
    .insert(apiCredentials)
    .values({ projectId: targetProjectId, apiKey: `pk_${randomBase62(24)}`, secretHash: sha256Hex(randomUUID()) })
    .returning();
  const slug = `ab-${randomBase62(16)}`;
  await db.insert(shareSlugs).values({ slug, shareId: randomUUID() });
  const [share] = await db
    .insert(publicVideoShares)
    .values({ projectId: targetProjectId, channel, slug, publicTitle: "Welcome", apiCredentialId: credential!.id })
    .returning();
  return share!.id;
}

beforeAll(async () => {
  db = await getDb();
  const { organization, project } = await createTestProject();
  projectId = project.id;
  const elsewhere = await createTestProject();
  siblingId = (await createTestProjectIn(organization.id, "Sibling")).id;
  viewerToken = (await createTestMember("Viewer", { projectId })).token;
  outsiderToken = (await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id })).token;

  await db.insert(templates).values([
    { id: template.a, projectId, name: "Welcome", version: "1.0", kind: "LottieStandalone" },
    { id: template.b, projectId, name: "Welcome", version: "2.0", kind: "LottieStandalone" },
    { id: template.c, projectId, name: "Spring offer", version: "1.3", kind: "LottieStandalone" },
    { id: template.outside, projectId, name: "Outside", version: "1.0", kind: "LottieStandalone" },
  ]);
  shareIds = { PROD: await createShare(projectId, "PROD"), STAGING: await createShare(projectId, "STAGING"), DEV: await createShare(projectId, "DEV") };
  await createShare(siblingId, "PROD");
  // Given out of position order: the answer lists them by position.
  await db.insert(shareVariants).values([
    { shareId: shareIds.PROD, projectId, templateId: template.b, weight: 50, position: 1, startedAt },
    { shareId: shareIds.PROD, projectId, templateId: template.a, weight: 50, position: 0, startedAt },
    { shareId: shareIds.STAGING, projectId, templateId: template.a, weight: 70, position: 0, startedAt },
    { shareId: shareIds.STAGING, projectId, templateId: template.b, weight: 30, position: 1, startedAt },
    { shareId: shareIds.DEV, projectId, templateId: template.a, weight: 40, position: 0, startedAt },
    { shareId: shareIds.DEV, projectId, templateId: template.c, weight: 30, position: 2, startedAt: new Date("2026-03-05T00:00:00.000Z") },
    { shareId: shareIds.DEV, projectId, templateId: template.b, weight: 30, position: 1, startedAt },
  ]);

  const home: Tenant = { organizationId: organization.id, projectId };
  const foreign: Tenant = { organizationId: elsewhere.organization.id, projectId: elsewhere.project.id };
  const arm = (templateId: string, templateVersion: string, channel: Channel): Arm => ({ templateId, templateVersion, channel });
  const prodA = arm(template.a, "1.0", "PROD");
  const prodB = arm(template.b, "2.0", "PROD");
  const rows = [
    ...sessions(home, prodA, 200, (i) => ({ completed: i < 80, clicks: i === 0 ? 2 : i < 20 ? 1 : 0 })),
    ...sessions(home, prodA, 10, () => ({ played: false })),
    ...sessions(home, prodB, 200, (i) => ({ completed: i < 120, clicks: i < 22 ? 1 : 0 })),
    // Noise, never in the default window's PROD numbers.
    ...sessions(home, prodA, 30, () => ({}), [Date.parse("2026-02-28T12:00:00.000Z")]),
    ...sessions(home, arm(template.a, "1.0", "DEV"), 50, () => ({ completed: true, clicks: 1 })),
    ...sessions(home, prodB, 20, () => ({ completed: true, clicks: 1, isBot: true })),
    ...sessions(home, arm(template.outside, "1.0", "PROD"), 40, () => ({ completed: true })),
    ...sessions(foreign, prodA, 100, () => ({ completed: true, clicks: 1 })),
    ...sessions(foreign, prodB, 100, () => ({ completed: true, clicks: 1 })),
    // The STAGING test's few sessions.
    ...sessions(home, arm(template.a, "1.0", "STAGING"), 5, (i) => ({ completed: i < 2 })),
    ...sessions(home, arm(template.b, "2.0", "STAGING"), 5, (i) => ({ completed: i < 4 })),
  ];
  expect((await insertEventRows(db, rows)).size).toBe(rows.length);
});

// ── calls ──────────────────────────────────────────────────────────────────────────────

/** `token` null: no Authorization header. */
const getComparison = (channel: string, query = "", token: string | null = viewerToken, project = projectId) =>
  comparisonRoute(
    apiRequest("GET", `/api/Projects/${project}/public-video-shares/${channel}/variants/comparison${query}`, { token: token ?? undefined }),
    routeParams({ projectId: project, channel }),
  );

async function comparison(channel: Channel, query = ""): Promise<VariantComparison> {
  const response = await getComparison(channel, query);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as VariantComparison;
  // The documented response schema describes exactly what the route sends.
  expect(variantComparisonSchema.parse(body)).toEqual(body);
  return body;
}

async function problemOf(response: Response, status: number): Promise<{ code: string; detail: string; errors?: { path: string; message: string }[] }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()) as { code: string; detail: string; errors?: { path: string; message: string }[] };
}

const rateOf = (successes: number, trials: number) => ({
  successes,
  trials,
  value: successes / trials,
  interval: wilsonInterval({ successes, trials }),
  enoughData: trials >= 100 && successes >= 10 && trials - successes >= 10,
});

const tomorrow = () => new Date((Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000).toISOString();

// ── the PROD test ──────────────────────────────────────────────────────────────────────

describe("GET …/public-video-shares/{channel}/variants/comparison – the PROD test by hand", () => {
  it("GET …/PROD/variants/comparison – default window: each variant's numbers, intervals, tests and the verdict", async () => {
    const body = await comparison("PROD");
    expect(body.shareId).toBe(shareIds.PROD);
    expect(body.channel).toBe("PROD");
    expect(body.window).toEqual({ from: "2026-03-01T00:00:00.000Z", to: tomorrow() });
    expect(body.method).toEqual({ confidenceLevel: 0.95, alpha: 0.05, minimumTrials: 100, minimumSuccesses: 10, minimumFailures: 10 });
    const [a, b] = body.variants;
    expect(body.variants).toHaveLength(2);
    expect(a).toEqual({
      label: "A",
      position: 0,
      control: true,
      templateId: template.a,
      templateName: "Welcome",
      templateVersion: "1.0",
      weight: 50,
      startedAt: startedAt.toISOString(),
      sessions: 210,
      uniqueViewers: 210,
      plays: 200,
      completedPlays: 80,
      sessionsWithPlay: 200,
      sessionsWithPlayAndCtaClick: 20,
      ctaClicks: 21,
      completionRate: rateOf(80, 200),
      ctr: rateOf(20, 200),
      vsControl: null,
    });
    expect(b).toMatchObject({
      label: "B",
      position: 1,
      control: false,
      templateId: template.b,
      templateVersion: "2.0",
      sessions: 200,
      uniqueViewers: 200,
      plays: 200,
      completedPlays: 120,
      sessionsWithPlay: 200,
      sessionsWithPlayAndCtaClick: 22,
      ctaClicks: 22,
      completionRate: rateOf(120, 200),
      ctr: rateOf(22, 200),
    });
    const completion = b!.vsControl!.completionRate;
    expect(completion.difference).toBeCloseTo(0.2, 12);
    expect(completion.z).toBeCloseTo(4, 12);
    expect(completion.pValue).toBeCloseTo(twoSidedPValue(4), 12);
    expect(completion.pValue).toBeCloseTo(0.0000633, 7);
    expect(completion).toMatchObject({ enoughData: true, significant: true, verdict: "Variant B completes more often than A (p < 0.001)" });
    const ctr = b!.vsControl!.ctr;
    expect(ctr.difference).toBeCloseTo(0.01, 12);
    expect(ctr.z).toBeCloseTo(0.326, 3);
    expect(ctr.pValue).toBeCloseTo(0.744, 3);
    expect(ctr).toMatchObject({ enoughData: true, significant: false, verdict: "No significant difference from A (p = 0.744)" });
    expect(body.verdict).toEqual({ status: "significant_difference", text: "Variant B completes more often than A (p < 0.001)" });
  });

  it("GET …/PROD/variants/comparison – each variant's numbers are the analytics report's for its template on the channel", async () => {
    const body = await comparison("PROD");
    for (const variant of body.variants) {
      const query = `?from=${body.window.from}&to=${body.window.to}&channel=PROD&templateId=${variant.templateId}`;
      const response = await analyticsRoute(apiRequest("GET", `/api/Projects/${projectId}/analytics${query}`, { token: viewerToken }), routeParams({ projectId }));
      expect(response.status).toBe(200);
      const { summary } = (await response.json()) as ProjectAnalytics;
      expect({
        sessions: variant.sessions,
        uniqueViewers: variant.uniqueViewers,
        plays: variant.plays,
        completedPlays: variant.completedPlays,
        sessionsWithPlay: variant.sessionsWithPlay,
        sessionsWithPlayAndCtaClick: variant.sessionsWithPlayAndCtaClick,
        ctaClicks: variant.ctaClicks,
        completionRate: variant.completionRate.value,
        ctr: variant.ctr.value,
      }).toEqual({
        sessions: summary.sessions,
        uniqueViewers: summary.uniqueViewers,
        plays: summary.plays,
        completedPlays: summary.completedPlays,
        sessionsWithPlay: summary.sessionsWithPlay,
        sessionsWithPlayAndCtaClick: summary.sessionsWithPlayAndCtaClick,
        ctaClicks: summary.ctaClicks,
        completionRate: summary.completionRate,
        ctr: summary.ctr,
      });
    }
  });

  it("GET …/PROD/variants/comparison?from=2026-02-28 – the day before the test counts when asked for (A's 30 plays without completion)", async () => {
    const body = await comparison("PROD", "?from=2026-02-28");
    expect(body.window.from).toBe("2026-02-28T00:00:00.000Z");
    const [a, b] = body.variants;
    expect(a).toMatchObject({ sessions: 240, plays: 230, completedPlays: 80, completionRate: rateOf(80, 230) });
    expect(b).toMatchObject({ plays: 200, completedPlays: 120 });
    const expected = twoProportionTest({ successes: 120, trials: 200 }, { successes: 80, trials: 230 })!;
    expect(b!.vsControl!.completionRate).toMatchObject({ difference: expected.difference, z: expected.z, pValue: expected.pValue, significant: true });
  });

  it("GET …/PROD/variants/comparison?from=2026-03-02&to=2026-03-03 – one day: the odd sessions alone, CTR's arms exactly at the minimum sample", async () => {
    const body = await comparison("PROD", "?from=2026-03-02&to=2026-03-03");
    expect(body.window).toEqual({ from: "2026-03-02T00:00:00.000Z", to: "2026-03-03T00:00:00.000Z" });
    const [a, b] = body.variants;
    expect(a).toMatchObject({ sessions: 105, plays: 100, completedPlays: 40, sessionsWithPlayAndCtaClick: 10, ctaClicks: 10 });
    expect(b).toMatchObject({ sessions: 100, plays: 100, completedPlays: 60, sessionsWithPlayAndCtaClick: 11, ctaClicks: 11 });
    expect(a!.ctr.enoughData).toBe(true);
    // 40 of 100 against 60 of 100: pooled 0.5, SE = √(0.25 · 2/100), z = 0.2 / 0.0707 = 2.83.
    expect(b!.vsControl!.completionRate.z).toBeCloseTo(0.2 / Math.sqrt(0.005), 12);
    expect(b!.vsControl!.completionRate.verdict).toBe(`Variant B completes more often than A (p = ${Math.floor(twoSidedPValue(0.2 / Math.sqrt(0.005)) * 1000) / 1000})`);
  });

  it("GET …/PROD/variants/comparison – the same answer once the rollup job has rolled every event up", async () => {
    const before = await comparison("PROD");
    expect(before.freshness.pendingEvents).toBe(0);
    await refreshRollups(db);
    const after = await comparison("PROD");
    expect(after).toEqual(before);
  });
});

// ── the other tests ────────────────────────────────────────────────────────────────────

describe("GET …/variants/comparison – small and many-variant tests", () => {
  it("GET …/STAGING/variants/comparison – 5 plays per arm: not enough data, yet the rates and intervals are shown", async () => {
    const body = await comparison("STAGING");
    const [a, b] = body.variants;
    expect(a).toMatchObject({ weight: 70, plays: 5, completedPlays: 2, completionRate: { ...rateOf(2, 5), enoughData: false } });
    expect(b).toMatchObject({ weight: 30, plays: 5, completedPlays: 4, completionRate: { ...rateOf(4, 5), enoughData: false } });
    expect(b!.vsControl!.completionRate).toMatchObject({ enoughData: false, significant: false, verdict: "Not enough data yet" });
    expect(b!.vsControl!.completionRate.pValue).not.toBeNull();
    expect(body.verdict).toEqual({ status: "not_enough_data", text: "Not enough data yet" });
  });

  it("GET …/DEV/variants/comparison – three variants: labels A, B, C in position order, α = 0.05 / 2, a variant nobody played has no rates", async () => {
    const body = await comparison("DEV");
    expect(body.method.alpha).toBe(0.025);
    expect(body.variants.map(({ label, templateName, templateVersion, position }) => [label, templateName, templateVersion, position])).toEqual([
      ["A", "Welcome", "1.0", 0],
      ["B", "Welcome", "2.0", 1],
      ["C", "Spring offer", "1.3", 2],
    ]);
    expect(body.window.from).toBe("2026-03-01T00:00:00.000Z");
    const [a, , c] = body.variants;
    expect(a).toMatchObject({ plays: 50, completedPlays: 50, completionRate: { ...rateOf(50, 50), enoughData: false } });
    expect(c).toMatchObject({ plays: 0, completionRate: { successes: 0, trials: 0, value: null, interval: null, enoughData: false } });
    expect(c!.vsControl!.completionRate).toEqual({ difference: null, z: null, pValue: null, enoughData: false, significant: false, verdict: "Not enough data yet" });
    expect(body.verdict.status).toBe("not_enough_data");
  });
});

// ── refusals ───────────────────────────────────────────────────────────────────────────

describe("GET …/variants/comparison – refusals", () => {
  it("GET …/PROD/variants/comparison on a share without variants → 409 no_ab_test", async () => {
    const siblingViewer = await createTestMember("Viewer", { projectId: siblingId });
    const problem = await problemOf(await getComparison("PROD", "", siblingViewer.token, siblingId), 409);
    expect(problem.code).toBe("no_ab_test");
    expect(problem.detail).toBe("There is no A/B test on the PROD share: it serves one template.");
  });

  it.each([
    { name: "a channel without a share", channel: "DEV", detail: "The project has no DEV share." },
    { name: "no such channel", channel: "QA", detail: 'There is no channel "QA": Invalid option: expected one of "DEV"|"STAGING"|"PROD".' },
  ])("GET …/variants/comparison – $name → 404", async ({ channel, detail }) => {
    const siblingViewer = await createTestMember("Viewer", { projectId: siblingId });
    expect((await problemOf(await getComparison(channel, "", siblingViewer.token, siblingId), 404)).detail).toBe(detail);
  });

  it.each([
    { query: "?from=2026-03-05&to=2026-03-01", path: "to" },
    { query: "?to=2026-02-01", path: "to" },
    { query: "?from=yesterday", path: "from" },
    { query: "?to=2026-03-01T12:00:00", path: "to" },
    { query: "?channel=PROD", path: "channel" },
  ])("GET …/PROD/variants/comparison$query → 422 naming $path", async ({ query, path }) => {
    const problem = await problemOf(await getComparison("PROD", query), 422);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors!.map((error) => error.path)).toContain(path);
  });

  it("GET …/PROD/variants/comparison – anonymous → 401; a member of another organization → 404", async () => {
    await problemOf(await getComparison("PROD", "", null), 401);
    await problemOf(await getComparison("PROD", "", outsiderToken), 404);
  });
});
