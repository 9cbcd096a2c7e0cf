import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postEvents } from "@/app/analytics/v1/events/route";
import { quarantineSampleMaxChars, quarantineSamplesKept, quarantineSamplesListed } from "@/lib/analytics/definitions";
import { quarantineReportSchema, type QuarantineReport } from "@/lib/analytics/contract";
import { selectRows } from "@/lib/analytics/select-rows";
import { getDb } from "@/lib/db";
import { drainQuarantine } from "@/lib/ingest/quarantine";
import { addTemplate, batchRequest, eventBatch, ingestTokenFor, storedCount, wireEvent, type Tenant } from "@/testing/ingest";
import { validateEventBatch } from "@/lib/ingest/validate-events";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { GET as quarantineRoute } from "./route";

// Refused batches go through the ingest route as a page sends them; the report is read back
// through GET …/analytics/quarantine. Each test takes a project of its own.

async function projectWithViewer() {
  const { organization, project } = await createTestProject();
  const viewer = await createTestMember("Viewer", { projectId: project.id });
  const tenant: Tenant = { organizationId: organization.id, projectId: project.id };
  return { tenant, token: await ingestTokenFor(tenant), viewerToken: viewer.token };
}

async function send(token: string, body: unknown) {
  const response = await postEvents(batchRequest({ token, body }));
  await drainQuarantine();
  return response;
}

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function report(viewerToken: string, projectId: string, query = `from=${today()}&to=${tomorrow()}`): Promise<QuarantineReport> {
  const response = await quarantineRoute(
    apiRequest("GET", `/api/Projects/${projectId}/analytics/quarantine?${query}`, { token: viewerToken }),
    routeParams({ projectId }),
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as QuarantineReport;
  expect(quarantineReportSchema.parse(body)).toEqual(body);
  return body;
}

async function storedSamples(projectId: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    await getDb(),
    sql`select count(*)::int as n from analytics_quarantine_samples where project_id = ${projectId}::uuid`,
  );
  return row!.n;
}

describe("POST /analytics/v1/events → the quarantine", () => {
  let home: Awaited<ReturnType<typeof projectWithViewer>>;

  beforeAll(async () => {
    home = await projectWithViewer();
  });

  it("POST /analytics/v1/events – a refused batch: the same 422, nothing stored, each refused event counted per reason", async () => {
    const { tenant, token, viewerToken } = home;
    const tooFar = wireEvent(tenant, "video.progressed", { payload: { position_ms: 1, percent: 150 } });
    const twoFlaws = wireEvent(tenant, "video.progressed", { session_id: "not-a-uuid", payload: { position_ms: 1, percent: 150 } });
    const body = eventBatch([wireEvent(tenant), tooFar, twoFlaws]);
    const response = await send(token, body);
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { code: string; errors: { path: string; message: string }[] };
    expect(problem.code).toBe("validation_failed");
    const expected = validateEventBatch(body);
    expect(expected.ok).toBe(false);
    expect(problem.errors).toEqual(expected.ok ? [] : expected.errors);
    expect(await storedCount(tenant.projectId)).toBe(0);

    const percentReason = `payload/percent: ${problem.errors.find((e) => e.path === "events.1.payload.percent")!.message}`;
    const sessionReason = `session_id: ${problem.errors.find((e) => e.path === "events.2.session_id")!.message}`;
    const result = await report(viewerToken, tenant.projectId);
    expect(result.reasons).toEqual([
      { reason: percentReason, count: 2 },
      { reason: sessionReason, count: 1 },
    ]);
    // Newest first; the events as sent; one sample per refused event, the valid one left out.
    expect(result.samples.map((s) => s.event)).toEqual([twoFlaws, tooFar]);
    expect(result.samples[0]!.reason).toContain(sessionReason);
    expect(result.samples[0]!.reason).toContain(percentReason);
  });

  it("POST /analytics/v1/events – a batch without events: its own error counts once", async () => {
    const { tenant, token, viewerToken } = await projectWithViewer();
    expect((await send(token, { sent_at: "2026-11-21T10:00:01.000Z" })).status).toBe(422);
    const result = await report(viewerToken, tenant.projectId);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]!.count).toBe(1);
    expect(result.samples[0]!.event).toEqual({ sent_at: "2026-11-21T10:00:01.000Z" });
  });

  it("POST /analytics/v1/events – a long envelope is cut to 4 KB; NUL and lone surrogates are stored escaped", async () => {
    const { tenant, token, viewerToken } = await projectWithViewer();
    const long = wireEvent(tenant, "video.errored", { payload: { error_code: "X", message: "m".repeat(10_000) } });
    const nul = wireEvent(tenant, "video.played", { template_id: "a\u0000b", session_id: "\ud800" });
    expect((await send(token, eventBatch([long, nul]))).status).toBe(422);
    const result = await report(viewerToken, tenant.projectId);
    const [nulSample, longSample] = result.samples;
    expect(nulSample!.event).toEqual(nul);
    expect(typeof longSample!.event).toBe("string");
    expect((longSample!.event as string).length).toBe(quarantineSampleMaxChars);
    expect(JSON.stringify(long).startsWith(longSample!.event as string)).toBe(true);
  });

  it(`POST /analytics/v1/events – the project keeps its newest ${quarantineSamplesKept} samples; a report lists ${quarantineSamplesListed}`, async () => {
    const { tenant, token, viewerToken } = await projectWithViewer();
    const bad = (i: number) => wireEvent(tenant, "video.played", { payload: { position_ms: -i - 1 } });
    for (let batch = 0; batch < 25; batch++) {
      const response = await send(token, eventBatch(Array.from({ length: 10 }, (_, i) => bad(batch * 10 + i))));
      expect(response.status).toBe(422);
    }
    expect(await storedSamples(tenant.projectId)).toBe(quarantineSamplesKept);
    const result = await report(viewerToken, tenant.projectId);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]!.count).toBe(250);
    expect(result.samples).toHaveLength(quarantineSamplesListed);
    // Newest first: the last event of the last batch.
    const positions = result.samples.map((sample) => (sample.event as { payload: { position_ms: number } }).payload.position_ms);
    expect(positions.slice(0, 3)).toEqual([-250, -249, -248]);
  });

  it("POST /analytics/v1/events – under a token naming no template: 202, the events of templates the project lacks reported by reason", async () => {
    const { tenant, viewerToken } = await projectWithViewer();
    const template = await addTemplate(tenant.projectId, "1.0");
    const token = await ingestTokenFor(tenant, { template: null });
    const own = wireEvent(tenant, "video.played", { template_id: template.id, template_version: "1.0" });
    const madeUp = wireEvent(tenant, "video.played", { template_id: randomUUID(), template_version: "1.0" });
    const otherVersion = wireEvent(tenant, "video.paused", { template_id: template.id, template_version: "7.0" });
    const response = await send(token, eventBatch([own, madeUp, otherVersion]));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1, duplicates: 0, quarantined: 2 });
    expect(await storedCount(tenant.projectId)).toBe(1);
    const result = await report(viewerToken, tenant.projectId);
    expect(result.reasons).toEqual(
      expect.arrayContaining([
        { reason: "template_id: not a template of this project", count: 1 },
        { reason: "template_version: not a version of this template", count: 1 },
      ]),
    );
    expect(result.reasons).toHaveLength(2);
    expect(result.samples.map((sample) => sample.event)).toEqual(expect.arrayContaining([madeUp, otherVersion]));
  });

  it("POST /analytics/v1/events – nothing is recorded for a bad token, or under another project", async () => {
    const { tenant, viewerToken } = await projectWithViewer();
    const other = await projectWithViewer();
    const bad = wireEvent(tenant, "video.played", { payload: { position_ms: -1 } });
    expect((await send(`${(await ingestTokenFor(tenant)).slice(0, -2)}xx`, eventBatch([bad]))).status).toBe(401);
    expect((await send(other.token, eventBatch([bad]))).status).toBe(422);
    expect(await report(viewerToken, tenant.projectId)).toMatchObject({ reasons: [], samples: [] });
    expect((await report(other.viewerToken, other.tenant.projectId)).reasons).toHaveLength(1);
  });
});

describe("GET /api/Projects/:id/analytics/quarantine – windows and bad queries", () => {
  it("GET /api/Projects/:id/analytics/quarantine – a window before the refusals is empty", async () => {
    const { tenant, token, viewerToken } = await projectWithViewer();
    await send(token, eventBatch([wireEvent(tenant, "video.played", { payload: { position_ms: -1 } })]));
    expect(await report(viewerToken, tenant.projectId, "from=2026-01-01&to=2026-01-02")).toEqual({
      window: { from: "2026-01-01T00:00:00.000Z", to: "2026-01-02T00:00:00.000Z" },
      reasons: [],
      samples: [],
    });
  });

  it.each([
    { name: "to before from", query: "from=2026-03-02&to=2026-03-01" },
    { name: "an analytics filter", query: "channel=PROD" },
    { name: "from not a date", query: "from=yesterday" },
  ])("GET /api/Projects/:id/analytics/quarantine – $name → 422", async ({ query }) => {
    const { tenant, viewerToken } = await projectWithViewer();
    const response = await quarantineRoute(
      apiRequest("GET", `/api/Projects/${tenant.projectId}/analytics/quarantine?${query}`, { token: viewerToken }),
      routeParams({ projectId: tenant.projectId }),
    );
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("GET /api/Projects/:id/analytics/quarantine – another project's member → 404", async () => {
    const { tenant } = await projectWithViewer();
    const stranger = await projectWithViewer();
    const response = await quarantineRoute(
      apiRequest("GET", `/api/Projects/${tenant.projectId}/analytics/quarantine`, { token: stranger.viewerToken }),
      routeParams({ projectId: tenant.projectId }),
    );
    expect(response.status).toBe(404);
  });
});
