import { randomInt, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { StartedApp } from "../testing/start-app";
import type { Manifest } from "../e2e/wire-events";
import { burstBatches, isRight, pollUntilRight, sendBatches, type Poll } from "./analytics-burst";
import { withAppDatabase } from "./database-checks";
import { prepareLoadTarget, uploadAndDeploy, type LoadTarget } from "./mixed-load";
import { percentile } from "./open-load";
import { createOwnDatabase, startOwnApp, stopOwnApp } from "./own-app";

// Issue 31, "Analytics that stay fresh under load and abuse", on the built app and PostgreSQL:
// - a burst of viewer sessions, the report asked for all along: never more than was sent, asOf
//   never going back, complete (pendingEvents 0) only with everything acknowledged before it;
//   then right. Report latency and time-to-right are printed, not asserted (issue 29).
// - one share sending random template ids and referrer hosts without pause: another tenant's
//   events are in its report, and rolled up by the job, while that burst goes on; the first
//   tenant's rollup rows keep one template and at most 100 referrer hosts a row.

/** Sessions of the burst (about 4.6 events each); RELIABILITY_BURST_SESSIONS for a bigger one. */
const burstSessions = Number(process.env.RELIABILITY_BURST_SESSIONS ?? 12_000);
const burstDays = 5;
const connections = 16;
/** Only a guard against a hang: no phase waits longer for its event. */
const hangGuardMs = 300_000;
const seed = Number(process.env.RELIABILITY_SEED ?? randomInt(2 ** 31));

// Skipped on PGlite on purpose: the figures and the worker thread are PostgreSQL's (on PGlite the
// job runs in the server's thread); .ci/run runs this spec in its PostgreSQL pass.
test.skip(!process.env.E2E_DATABASE_URL, "runs in the PostgreSQL run of the suite (E2E_DATABASE_URL set)");

let database: Awaited<ReturnType<typeof createOwnDatabase>>;
let app: StartedApp;
let target: LoadTarget;

test.beforeAll(async () => {
  console.log(`analytics freshness: seed ${seed} (RELIABILITY_SEED=${seed} repeats this mix)`);
  database = await createOwnDatabase("freshness");
  // A capacity test: the per-project and per-address ingest limits are lifted out of its way.
  app = await startOwnApp(database, { INGEST_PROJECT_RATE: "1000000000", INGEST_ADDRESS_RATE: "1000000000" });
  target = await prepareLoadTarget(app);
});

test.afterAll(async () => {
  await stopOwnApp(app);
  database?.destroy();
});

const dayMs = 86_400_000;

function reportAsker(base: string, projectId: string, auth: Record<string, string>) {
  const todayStart = Math.floor(Date.now() / dayMs) * dayMs;
  const from = new Date(todayStart - (burstDays - 1) * dayMs).toISOString();
  const to = new Date(todayStart + dayMs).toISOString();
  return async () => {
    const response = await fetch(`${base}/api/Projects/${projectId}/analytics?from=${from}&to=${to}`, { headers: auth });
    expect(response.status).toBe(200);
    return (await response.json()) as Poll["report"];
  };
}

/** Fresh ingest tokens of a share (each page view mints one; each has its own rate limit). */
async function ingestTokens(base: string, slug: string, count: number): Promise<{ manifest: Manifest; tokens: string[] }> {
  const manifests = await Promise.all(
    Array.from({ length: count }, async () => (await (await fetch(`${base}/api/embed/manifest?share=${slug}`)).json()) as Manifest),
  );
  return { manifest: manifests[0]!, tokens: manifests.map((manifest) => manifest.ingest.token) };
}

const figuresOf = (polls: Poll[]) => ({
  polls: polls.length,
  latencyMsP50: Math.round(percentile(polls.map((poll) => poll.latencyMs), 50)),
  latencyMsMax: Math.round(Math.max(...polls.map((poll) => poll.latencyMs))),
  pendingEventsMax: Math.max(...polls.map((poll) => poll.report.freshness.pendingEvents)),
});

test("a burst of sessions, the report asked for throughout: never ahead of what was sent, complete only with everything acknowledged, then right", async () => {
  const ask = reportAsker(target.base, target.projectId, target.auth);
  const { manifest, tokens } = await ingestTokens(target.base, target.slug, 8);
  const { bodies, totals } = burstBatches(manifest, { sessions: burstSessions, days: burstDays, sessionsPerBatch: 40, seed });
  const sessionsIn = (index: number) => Math.min(40, burstSessions - index * 40);

  let sessionsAcknowledged = 0;
  const sending = sendBatches(manifest.ingest.url, tokens, bodies, { connections, onAcknowledged: (index) => (sessionsAcknowledged += sessionsIn(index)) });
  let sent = false;
  void sending.finally(() => (sent = true));
  const during: Poll[] = [];
  const problems: string[] = [];
  let lastAsOf = "";
  const check = (poll: Poll, acknowledgedBefore: number) => {
    const { summary, freshness } = poll.report;
    if (summary.sessions > totals.sessions) problems.push(`${summary.sessions} sessions counted of ${totals.sessions} sent`);
    if (freshness.asOf !== null && freshness.asOf < lastAsOf) problems.push(`asOf went back from ${lastAsOf} to ${freshness.asOf}`);
    lastAsOf = freshness.asOf ?? lastAsOf;
    if (freshness.pendingEvents === 0 && summary.sessions < acknowledgedBefore) {
      problems.push(`complete (pendingEvents 0) with ${summary.sessions} sessions, but ${acknowledgedBefore} were acknowledged before it was asked`);
    }
  };
  while (!sent) {
    const acknowledgedBefore = sessionsAcknowledged;
    const started = performance.now();
    const report = await ask();
    const poll = { at: Date.now(), latencyMs: performance.now() - started, report };
    during.push(poll);
    check(poll, acknowledgedBefore);
  }
  const ingest = await sending;
  expect(ingest.refused, "batches not acknowledged").toBe(0);
  expect(ingest.acknowledged).toBe(totals.events);

  const sentAt = Date.now();
  const after = await pollUntilRight(ask, totals, { hangGuardMs });
  for (const poll of after.polls) check(poll, totals.sessions);
  const first = after.polls[0]!;
  const figures = {
    seed,
    sessions: totals.sessions,
    events: totals.events,
    ingestSeconds: Number(ingest.seconds.toFixed(1)),
    ingestEventsPerSecond: Math.round(ingest.eventsPerSecond),
    duringBurst: figuresOf(during),
    firstReportAfter: { latencyMs: Math.round(first.latencyMs), right: isRight(first.report, totals), pendingEvents: first.report.freshness.pendingEvents },
    asOfAgeSecondsAtFirstReport: first.report.freshness.asOf ? Number(((first.at - Date.parse(first.report.freshness.asOf)) / 1000).toFixed(1)) : null,
    secondsToRight: Number(((after.polls.at(-1)!.at - sentAt) / 1000).toFixed(1)),
    afterBurst: figuresOf(after.polls),
  };
  console.log(`analytics burst: ${JSON.stringify(figures)}`);
  expect(problems).toEqual([]);
  expect(after.right, `the report was still not right after the ${hangGuardMs / 1000} s hang guard`).toBe(true);

  // The job catches up (its worker thread says so on /api/health), and the rollups alone agree.
  const health = await waitForHealth(target.base, (rollups) => rollups?.pendingProjects === 0);
  expect(health.runner).toBe("worker");
  const final = await ask();
  expect(final.freshness.pendingEvents).toBe(0);
  expect(isRight(final, totals)).toBe(true);
});

test("one share sending random template ids and referrer hosts: another tenant stays current, the first one's rollup rows stay small", async () => {
  const { manifest, tokens } = await ingestTokens(target.base, target.slug, 4);
  const other = await secondTenant();
  let session = 0;
  const abusive = () => {
    // Endless: the burst goes on until the other tenant's checks are done.
    const { bodies } = burstBatches(manifest, {
      sessions: 40,
      days: 3,
      sessionsPerBatch: 40,
      seed: seed + session,
      template: () => ({ id: randomUUID(), version: `${randomInt(1000)}.${randomInt(1000)}` }),
      referrerHost: () => `r${session++}.example`,
    });
    return bodies[0];
  };
  const stop = new AbortController();
  let abusiveAcknowledged = 0;
  const flooding = sendBatches(manifest.ingest.url, tokens, abusive, { connections: 8, signal: stop.signal, onAcknowledged: () => abusiveAcknowledged++ });
  let flooded = false;
  void flooding.finally(() => (flooded = true));
  await expect.poll(() => abusiveAcknowledged, { timeout: hangGuardMs, message: "the abusive burst got going" }).toBeGreaterThanOrEqual(50);

  // The other tenant's viewers, while the burst goes on.
  const { bodies, totals } = burstBatches(other.manifest, { sessions: 100, days: 1, sessionsPerBatch: 50, seed });
  const quiet = await sendBatches(other.manifest.ingest.url, [other.manifest.ingest.token], bodies, { connections: 2 });
  expect(quiet.acknowledged).toBe(totals.events);
  const askOther = reportAsker(target.base, other.projectId, target.auth);
  const inReport = await pollUntilRight(askOther, totals, { hangGuardMs });
  expect(inReport.right).toBe(true);
  // The job rolls them up too, one round after they came: the burst has not held them back.
  const rolledUpAfterMs = await waitUntilRolledUp(other.projectId);
  expect(flooded, "the abusive burst was still being sent").toBe(false);
  stop.abort();
  const flood = await flooding;
  console.log(
    `analytics abuse: ${JSON.stringify({ seed, abusiveEvents: flood.acknowledged, abusiveEventsPerSecond: Math.round(flood.eventsPerSecond), otherTenantRightAfterPolls: inReport.polls.length, otherTenantRolledUpAfterMs: rolledUpAfterMs })}`,
  );

  await waitForHealth(target.base, (rollups) => rollups?.pendingProjects === 0);
  const bounds = await withAppDatabase(database, async (query) => {
    const [templates] = await query<{ templates: string[] }>(
      "select coalesce(array_agg(distinct template_id), '{}') as templates from analytics_daily_rollups where project_id = $1 and mask & 2 = 2",
      [target.projectId],
    );
    const [hosts] = await query<{ most: number | null }>(
      "select max((select count(*) from jsonb_object_keys(breakdowns -> 'referrerHost')))::int as most from analytics_daily_rollups where project_id = $1",
      [target.projectId],
    );
    return { templates: templates!.templates, mostHostsInARow: hosts!.most };
  });
  // The token names the template the share served: the random claims were stored as that one.
  expect(bounds.templates).toEqual([manifest.template!.id]);
  expect(bounds.mostHostsInARow).toBeLessThanOrEqual(100);
});

type RollupStatus = { runner: string; lagSeconds: number; pendingProjects: number } | null;

async function waitForHealth(base: string, ready: (rollups: RollupStatus) => boolean): Promise<NonNullable<RollupStatus>> {
  let rollups: RollupStatus = null;
  await expect
    .poll(
      async () => {
        rollups = ((await (await fetch(`${base}/api/health`)).json()) as { analyticsRollups: RollupStatus }).analyticsRollups;
        return ready(rollups);
      },
      { timeout: hangGuardMs, intervals: [250], message: "the rollup job caught up (hang guard)" },
    )
    .toBe(true);
  return rollups!;
}

/** Milliseconds until every stored event of the project is below its rollup cursor. */
async function waitUntilRolledUp(projectId: string): Promise<number> {
  const started = Date.now();
  await withAppDatabase(database, async (query) => {
    await expect
      .poll(
        async () =>
          (
            await query<{ pending: number }>(
              `select count(*)::int as pending from analytics_events
              where project_id = $1 and xid >= coalesce((select processed_before from analytics_rollup_cursors where project_id = $1), '0'::xid8)`,
              [projectId],
            )
          )[0]!.pending,
        { timeout: hangGuardMs, intervals: [100], message: "the other tenant's events rolled up (hang guard)" },
      )
      .toBe(0);
  });
  return Date.now() - started;
}

/** A second project of the organization with a Production template and a PROD share, and its page manifest. */
async function secondTenant(): Promise<{ projectId: string; manifest: Manifest }> {
  const call = async <T>(path: string, method: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${target.base}${path}`, {
      method,
      headers: { ...target.auth, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return JSON.parse(text) as T;
  };
  const organizationId = target.manifest.organizationId;
  const project = await call<{ id: string }>(`/api/organizations/${organizationId}/projects`, "POST", { name: "Second tenant" });
  const credential = await call<{ id: string }>("/api/credentials", "POST", { projectId: project.id, name: "Site" });
  const deployed = await uploadAndDeploy({ base: target.base, projectId: project.id, auth: target.auth }, 0);
  expect(deployed.status).toBeLessThan(300);
  const share = await call<{ slug: string }>(`/api/Projects/${project.id}/public-video-shares/PROD`, "PUT", { publicTitle: "Second", apiCredentialId: credential.id });
  const manifest = await call<Manifest>(`/api/embed/manifest?share=${share.slug}`, "GET");
  return { projectId: project.id, manifest };
}

