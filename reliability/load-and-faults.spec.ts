import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { expect, test, type Page, type Request } from "@playwright/test";
import { isRetryable, maxAttempts } from "@/browser/sdk/queue";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres";
import type { StartedApp } from "../testing/start-app";
import { analyticsMessage, embedPlayer, harnessPage, hostPage, postFrom } from "../e2e/sdk-harness";
import { countStored, invariantViolations, templateStoreProblems, withAppDatabase } from "./database-checks";
import { ingestBatch, managementRequest, prepareLoadTarget, type EventLedger, type LoadTarget } from "./mixed-load";
import { countBy, figuresByClass, runOpenLoad, type Shot, type Stream } from "./open-load";
import { startOwnApp, stopOwnApp } from "./own-app";

// Issue 15, "Load held" and "Faults survived": the built app on a PostgreSQL cluster of this
// spec's own (testing/private-postgres.ts; the shared server is never stopped) under mixed
// load at a fixed arrival rate — management reads and writes, analytics batches. First the load
// alone; then the same load while the cluster is stopped and started again, with the real SDK
// in Chromium tracking events all along. Every event is counted in the database.
// No verdict depends on how fast the machine is (issue 29): each phase ends on an event (the
// app answered 503, it recovered, the SDK settled), waits are capped only by a hang guard, and
// the durations (how long recovery took) are printed; `npm run bench:reliability` measures them.
// Runs in CI's PostgreSQL run only (E2E_DATABASE_URL set): see docs/adr/0080-load-and-faults.md.

/** 15 s of load by default: every request class runs a few hundred times (RELIABILITY_LOAD_SECONDS=60 for a longer soak). */
const loadSeconds = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 15);
/** Management requests a second, and analytics batches a second of `eventsPerBatch` events. */
const managementRate = Number(process.env.RELIABILITY_MANAGEMENT_RATE ?? 25);
const ingestRate = Number(process.env.RELIABILITY_INGEST_RATE ?? 20);
const eventsPerBatch = 25;
const concurrency = 32;
/**
 * The outage: the cluster stays down at least this long, and in any case until the app has
 * answered 503 to both load streams and to the SDK (on a slow machine that takes longer). 5 s
 * outlasts the SDK's five attempts (backoff 200…800 ms), so some of its batches are dropped.
 */
const outageMs = Number(process.env.RELIABILITY_OUTAGE_SECONDS ?? 5) * 1000;
/** The app counts as recovered once this many requests in a row (by the time they ended) succeeded after the cluster was back. */
const recoveredRun = 50;
/** Only a guard against a hang: no phase waits longer for its event. */
const hangGuardMs = 120_000;
/** The SDK tracks an event this often through the outage phase. */
const trackEveryMs = 400;

// Skipped on PGlite on purpose: the outage stops a PostgreSQL cluster, and the load figures are
// PostgreSQL's; .ci/run runs this spec in its PostgreSQL pass (docs/adr/0080-load-and-faults.md).
test.skip(!process.env.E2E_DATABASE_URL, "runs in the PostgreSQL run of the suite (E2E_DATABASE_URL set)");

// One cluster and app for both tests (a worker that restarts after a failure makes new ones).
let cluster: PrivatePostgres;
let dataDir: string;
let app: StartedApp;
let target: LoadTarget;

test.beforeAll(async () => {
  cluster = await startPrivatePostgres();
  dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-load-"));
  app = await startOwnApp({ url: cluster.url, dataDir });
  target = await prepareLoadTarget(app);
});

test.afterAll(async () => {
  await stopOwnApp(app);
  cluster?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function loadStreams(ledger: EventLedger): Stream[] {
  return [
    { name: "management", rate: managementRate, concurrency, send: (index) => managementRequest(target, index) },
    { name: "ingest", rate: ingestRate, concurrency, send: () => ingestBatch(target, ledger, eventsPerBatch) },
  ];
}

const succeeded = (shot: Shot) => typeof shot.outcome.status === "number" && shot.outcome.status < 300;
const describeShot = (shot: Shot) =>
  `${shot.kind} (${shot.stream} #${shot.index}) scheduled at ${new Date(shot.scheduledAt).toISOString().slice(11, 23)}, sent ${new Date(shot.startedAt).toISOString().slice(11, 23)}: ${shot.outcome.status}`;

/** Events acknowledged but not stored, and stored more than once. */
async function eventLedgerFigures(ledger: EventLedger) {
  return withAppDatabase({ url: cluster.url, dataDir }, async (query) => {
    const acknowledged = await countStored(query, ledger.acknowledged);
    const refused = await countStored(query, ledger.refused);
    return {
      eventsAcknowledged: ledger.acknowledged.length,
      lost: ledger.acknowledged.length - acknowledged.stored,
      duplicates: acknowledged.rows - acknowledged.stored + (refused.rows - refused.stored),
      /** Refused (503) yet stored: a batch the database committed just as it went away. A retry would count them as duplicates. */
      refusedButStored: refused.stored,
    };
  });
}

test("Load held – mixed management and ingest load at a fixed rate on PostgreSQL: no error, no event lost or stored twice", async () => {
  const ledger: EventLedger = { acknowledged: [], refused: [] };
  const shots = await runOpenLoad(loadStreams(ledger), loadSeconds * 1000);
  const events = await eventLedgerFigures(ledger);
  const figures = {
    seconds: loadSeconds,
    requests: shots.length,
    byClass: figuresByClass(shots),
    ...events,
    loadAverage: loadavg()[0],
  };
  console.log(`load held: ${JSON.stringify(figures)}`);

  expect(shots.filter((shot) => !succeeded(shot)).map(describeShot), "requests that did not succeed").toEqual([]);
  expect(events.lost, "acknowledged events not stored").toBe(0);
  expect(events.duplicates, "events stored twice").toBe(0);
});

/** Every POST of analytics events the page sends, with the event ids it carried and its answer (0: no answer). */
function recordSdkAttempts(page: Page) {
  const attempts: { ids: string[]; sentAt: number; status?: number }[] = [];
  const byRequest = new Map<Request, (typeof attempts)[number]>();
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== "/analytics/v1/events") return;
    const attempt = { ids: (request.postDataJSON() as { events: { event_id: string }[] }).events.map((event) => event.event_id), sentAt: Date.now() };
    attempts.push(attempt);
    byRequest.set(request, attempt);
  });
  page.on("requestfinished", async (request) => {
    const attempt = byRequest.get(request);
    if (attempt) attempt.status = (await request.response())?.status() ?? 0;
  });
  page.on("requestfailed", (request) => {
    const attempt = byRequest.get(request);
    if (attempt) attempt.status = 0;
  });
  return attempts;
}

/**
 * A customer page with the app's real SDK, and a harness in place of the player iframe whose
 * analytics go to the app's real ingest. The page is served for real on 127.0.0.1 (a page
 * page.route makes up counts as public, and Chromium refuses its requests to loopback).
 */
async function openCustomerPage(page: Page) {
  const server = http.createServer((_, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(hostPage(target.base)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { manifest } = target;
  const context = {
    organizationId: manifest.organizationId,
    projectId: manifest.projectId,
    templateId: manifest.template!.id,
    templateVersion: manifest.template!.version,
    consentMode: "not_required" as const,
    ingest: manifest.ingest,
  };
  await page.route(`${target.base}/embed/reliability-harness`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: harnessPage({ context }) }),
  );
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const { frame } = await embedPlayer(page, target.base, "reliability-harness");
  return {
    track: (position: number) => postFrom(page, frame, [analyticsMessage({ eventType: "video.paused", payload: { position_ms: position } })]),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves once `condition()` holds; fails naming `what` after the hang guard. */
async function waitUntil(condition: () => boolean, what: string) {
  await expect.poll(condition, { timeout: hangGuardMs, intervals: [100], message: `${what} (hang guard: ${hangGuardMs / 1000} s)` }).toBe(true);
}

test("Faults survived – PostgreSQL stopped under the same load: 503 while down, recovery, invariants, the SDK's events", async ({ page }) => {
  const ledger: EventLedger = { acknowledged: [], refused: [] };
  const sdkAttempts = recordSdkAttempts(page);
  const customerPage = await openCustomerPage(page);
  const timeline = { stopAt: 0, downAt: 0, backAt: 0, recoveredRunAt: 0, settledAt: 0 };
  const live: Shot[] = [];
  const stopLoad = new AbortController();
  let tracking = true;

  const load = runOpenLoad(loadStreams(ledger), { signal: stopLoad.signal, shots: live });
  const tracked = (async () => {
    for (let position = 1; tracking; position++) {
      await customerPage.track(position);
      await delay(trackEveryMs);
    }
  })();
  const scenario = (async () => {
    // Before: both streams and the SDK have been answered with a success.
    await waitUntil(
      () => ["management", "ingest"].every((stream) => live.some((shot) => shot.stream === stream && succeeded(shot))) && sdkAttempts.some((a) => a.status === 202),
      "the load and the SDK succeed before the outage",
    );
    timeline.stopAt = Date.now();
    await cluster.stop();
    timeline.downAt = Date.now();
    // Down: for outageMs, and until the app has said 503 to each stream and to the SDK.
    await waitUntil(
      () =>
        Date.now() >= timeline.stopAt + outageMs &&
        ["management", "ingest"].every((stream) => live.some((shot) => shot.stream === stream && shot.outcome.status === 503 && shot.startedAt >= timeline.downAt)) &&
        sdkAttempts.some((a) => a.status === 503),
      "503s from both streams and the SDK while the database is down",
    );
    await cluster.start();
    timeline.backAt = Date.now();
    // Back: the app has recovered by itself — the last `recoveredRun` requests to end all succeeded, and so did an SDK batch.
    await waitUntil(() => {
      const after = live.filter((shot) => shot.startedAt >= timeline.backAt).sort((a, b) => a.endedAt - b.endedAt);
      return after.length >= recoveredRun && after.slice(-recoveredRun).every(succeeded) && sdkAttempts.some((a) => a.status === 202 && a.sentAt >= timeline.backAt);
    }, "the app recovers by itself once the database is back");
    timeline.recoveredRunAt = Date.now();
  })();
  try {
    await scenario;
  } finally {
    tracking = false;
    stopLoad.abort();
  }
  const shots = await load;
  await tracked;
  // The SDK settles: every batch it sent has its answer, and every event is done with — its last
  // answer not one the SDK retries (a 202, or a refusal the assertions below catch), or its 5 attempts used up.
  const settled = () => {
    if (sdkAttempts.some((attempt) => attempt.status === undefined)) return false;
    const attemptsById = new Map<string, number[]>();
    for (const attempt of sdkAttempts) for (const id of attempt.ids) attemptsById.set(id, [...(attemptsById.get(id) ?? []), attempt.status!]);
    return [...attemptsById.values()].every((statuses) => !isRetryable(statuses.at(-1)!) || statuses.length >= maxAttempts);
  };
  await waitUntil(settled, "the SDK delivers or drops every event it sent");
  timeline.settledAt = Date.now();

  await customerPage.close();

  // A 503 is expected from the stop until the app has recovered; anything else not a success is a failure.
  const unavailable = shots.filter((shot) => shot.outcome.status === 503 && shot.endedAt >= timeline.stopAt);
  const recoveredAt = Math.max(timeline.backAt, ...unavailable.map((shot) => shot.endedAt));
  const failures = shots.filter((shot) => !succeeded(shot) && !unavailable.includes(shot));

  // The SDK: events it delivered (a 202), and events it dropped after its 5 attempts (spec §4.6).
  const attemptsOf = new Map<string, { sentAt: number; status: number }[]>();
  for (const attempt of sdkAttempts) {
    for (const id of attempt.ids) {
      if (!attemptsOf.has(id)) attemptsOf.set(id, []);
      attemptsOf.get(id)!.push({ sentAt: attempt.sentAt, status: attempt.status ?? -1 });
    }
  }
  const sdkEvents = [...attemptsOf].map(([id, attempts]) => ({ id, attempts, delivered: attempts.some((a) => a.status === 202) }));
  const delivered = sdkEvents.filter((event) => event.delivered);
  // Events tried after a 503 and again once the SDK itself saw the app back (its first 202 after a 503).
  const first503 = Math.min(...sdkAttempts.filter((attempt) => attempt.status === 503).map((attempt) => attempt.sentAt));
  const sdkBackAt = Math.min(...sdkAttempts.filter((attempt) => attempt.status === 202 && attempt.sentAt > first503).map((attempt) => attempt.sentAt));
  const retriedAfterRecovery = sdkEvents.filter((event) => event.attempts.some((a) => a.status === 503) && event.attempts.some((a) => a.sentAt >= sdkBackAt));
  const dropped = sdkEvents.filter((event) => !event.delivered);

  const database = await withAppDatabase({ url: cluster.url, dataDir }, async (query) => ({
    sdkStored: await countStored(query, delivered.map((event) => event.id)),
    invariants: await invariantViolations(query),
    templates: await templateStoreProblems(query, dataDir),
  }));
  const events = await eventLedgerFigures(ledger);
  const figures = {
    outage: { stopMs: timeline.downAt - timeline.stopAt, downMs: timeline.backAt - timeline.stopAt },
    /** From the database back to the app's last 503: the figure docs/reliability.md holds to 10 s (reported; `npm run bench:reliability`). */
    recoveryMs: recoveredAt - timeline.backAt,
    /** From the database back to the end of the run of successes that counted as recovered. */
    recoveredRunMs: timeline.recoveredRunAt - timeline.backAt,
    requests: shots.length,
    byClass: figuresByClass(shots),
    /** The 503 answers: how long each took (service) and waited (from its scheduled time). */
    unavailable: figuresByClass(unavailable),
    missingRetryAfter: unavailable.filter((shot) => !shot.outcome.retryAfter).length,
    failures: failures.length,
    ...events,
    sdk: {
      tracked: sdkEvents.length,
      attempts: sdkAttempts.length,
      statuses: countBy(sdkAttempts.map((attempt) => attempt.status ?? "none")),
      delivered: delivered.length,
      deliveredAfterRetry: delivered.filter((event) => event.attempts[0]!.status !== 202).length,
      retriedAfterRecovery: retriedAfterRecovery.length,
      droppedAfter5Attempts: dropped.length,
      stored: database.sdkStored.stored,
      storedTwice: database.sdkStored.rows - database.sdkStored.stored,
    },
    loadAverage: loadavg()[0],
  };
  console.log(`faults survived: ${JSON.stringify(figures)}`);
  const at = (time: number) => new Date(time).toISOString().slice(11, 23);
  const late = unavailable.filter((shot) => shot.endedAt > timeline.backAt).slice(-10);
  const outageLog = app.output().split("\n").filter((line) => line.startsWith("The database server ")).join(" / ");
  console.log(
    `outage timeline: stop ${at(timeline.stopAt)}, stopped ${at(timeline.downAt)}, started ${at(timeline.backAt)}, recovered run ${at(timeline.recoveredRunAt)}, ` +
      `SDK settled ${at(timeline.settledAt)}; the last 503s after the database was back: ${late.map((shot) => `${shot.kind} ended ${at(shot.endedAt)}`).join(", ") || "none"}; ` +
      `the app's outage log: ${outageLog}`,
  );
  if (failures.length > 0) console.log(`the app printed:\n${app.output().slice(-6000)}`);

  expect(failures.map(describeShot), "answers other than success or a 503 during the outage (500, reset, timeout…)").toEqual([]);
  expect(unavailable.length, "requests answered 503 while the database was down").toBeGreaterThan(0);
  expect(figures.missingRetryAfter, "503s without Retry-After").toBe(0);
  expect(events.lost, "acknowledged events not stored").toBe(0);
  expect(events.duplicates, "events stored twice").toBe(0);
  expect(database.invariants).toEqual({ productionTemplates: [], sharesPerChannel: [], duplicateEvents: [] });
  expect(database.templates).toEqual({ rowsWithoutBlob: [], blobsWithoutRow: [], tempFiles: [], templatesWithoutFiles: [] });

  expect(Object.keys(figures.sdk.statuses).sort(), "the SDK's POSTs were answered 202 or 503, never reset").toEqual(
    Object.keys(figures.sdk.statuses).filter((status) => status === "202" || status === "503").sort(),
  );
  // Whether a batch is between its tries when the app recovers depends on timing (usually one is:
  // seven runs in eight had 4–9 events delivered by a retry); every event tried again once the app
  // was back must arrive.
  expect(retriedAfterRecovery.filter((event) => !event.delivered).map((event) => event.id), "events tried again after the app recovered, not delivered").toEqual([]);
  expect(database.sdkStored, "every event the SDK delivered, stored once").toEqual({ stored: delivered.length, rows: delivered.length });
  // Spec §4.6: a batch is dropped after its 5th failure. Only batches that failed 5 times before the app recovered may be.
  for (const event of dropped) {
    expect(event.attempts.map((a) => a.status), `event ${event.id} dropped`).toEqual([503, 503, 503, 503, 503]);
    expect(event.attempts[0]!.sentAt, `event ${event.id} dropped: first sent before the app recovered`).toBeLessThan(recoveredAt);
  }
});
