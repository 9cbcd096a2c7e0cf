import http from "node:http";
import { loadavg } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import { multipartBody } from "../testing/multipart";
import type { StartedApp } from "../testing/start-app";
import { countStored, invariantViolations, templateStoreProblems, withAppDatabase, type AppDatabase } from "./database-checks";
import { ingestBatch, prepareLoadTarget, type EventLedger } from "./mixed-load";
import { runOpenLoad, timedFetch } from "./open-load";
import { createOwnDatabase, startOwnApp, stopOwnApp } from "./own-app";

// Issue 15, "Faults survived": the app told to stop (SIGTERM) while a large template upload is
// still arriving, and the embedded database's server killed (SIGKILL) in the middle of ingest
// and writes. SIGTERM with ingest batches in flight is e2e/outage.spec.ts's.
// Each step waits for its event (bytes sent, events acknowledged, the process's exit), capped
// only by a hang guard; how long the shutdown took is printed, not judged (issue 29): the 10 s
// that scripts/serve.mjs holds itself to is `npm run bench:reliability`'s figure (an exit past
// it is serve.mjs's own forced exit, code 1, which the exit code assertions catch).

/** Only a guard against a hang: no step waits longer for its event. */
const hangGuardMs = 120_000;

/** A multipart upload of a Raster template whose MP4-like video is `bytes` long. */
function bigUpload(name: string, bytes: number) {
  const video = Buffer.alloc(bytes, 0x61);
  video.write("\u0000\u0000\u0000\u0018ftypisom", 0, "latin1");
  return multipartBody([
    { name: "name", value: name },
    { name: "kind", value: "Raster" },
    { name: "videoFile", filename: "big.mp4", content: video, contentType: "video/mp4" },
  ]);
}

/**
 * POSTs `body` to the app's upload route at `bytesPerSecond`, in 64 KB pieces. `written`
 * resolves once the last byte is handed to the socket (or the server cut the request off, or
 * `hold()` stopped the sending: the body then stays incomplete however long the server takes);
 * `answer` with the status, or "network error <code>".
 */
function sendSlowly(app: StartedApp, upload: { body: Buffer; contentType: string }, bytesPerSecond: number) {
  let sent = 0;
  let held = false;
  const req = http.request({
    host: "127.0.0.1",
    port: app.port,
    method: "POST",
    path: `/api/Projects/${app.projectId}/templates/upload`,
    headers: { "Content-Type": upload.contentType, "Content-Length": upload.body.length, Authorization: `Bearer ${app.token}` },
  });
  const answer = new Promise<number | string>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve(`network error ${error.code ?? error.message}`));
  });
  const written = (async () => {
    const piece = 64 * 1024;
    const started = Date.now();
    while (sent < upload.body.length && !req.destroyed && !held) {
      const end = Math.min(upload.body.length, sent + piece);
      const drained = req.write(upload.body.subarray(sent, end));
      sent = end;
      if (!drained) await Promise.race([new Promise((resolve) => req.once("drain", resolve)), answer]);
      await delay(Math.max(0, started + (sent / bytesPerSecond) * 1000 - Date.now()));
    }
    if (!req.destroyed && !held) req.end();
  })();
  return { answer, written, sent: () => sent, hold: () => (held = true) };
}

/** SIGTERM to the app; its exit code ("still running" past the hang guard), and how long it took to exit (reported). */
async function terminate(app: StartedApp) {
  const started = Date.now();
  const exitCode = await Promise.race([app.stop(), delay(hangGuardMs, "still running")]);
  return { exitCode, shutdownMs: Date.now() - started };
}

/** Resolves once `condition()` holds; fails naming `what` after the hang guard. */
async function waitUntil(condition: () => boolean, what: string) {
  await expect.poll(condition, { timeout: hangGuardMs, intervals: [50], message: `${what} (hang guard: ${hangGuardMs / 1000} s)` }).toBe(true);
}

async function templatesNamed(database: AppDatabase, name: string) {
  return withAppDatabase(database, async (query) => ({
    stored: (await query<{ id: string }>("select id from templates where name = $1", [name])).length,
    problems: await templateStoreProblems(query, database.dataDir),
  }));
}

const cleanStore = { rowsWithoutBlob: [], blobsWithoutRow: [], tempFiles: [], templatesWithoutFiles: [] };

test("SIGTERM while a large template upload is still arriving, and just after it arrived: the app exits in order, stored whole or not at all, no temp files", async () => {
  const database = await createOwnDatabase("upload-sigterm");
  let app: StartedApp | undefined;
  try {
    // 1. A 48 MB body at 4 MB/s gets SIGTERM once 8 MB are sent, and no byte more: the server
    //    cuts it off, cleans up and exits.
    app = await startOwnApp(database);
    const slow = sendSlowly(app, bigUpload("Cut off", 48 * 1024 * 1024), 4 * 1024 * 1024);
    await waitUntil(() => slow.sent() >= 8 * 1024 * 1024, "8 MB of the upload sent");
    slow.hold();
    const sentAtSignal = slow.sent();
    const cutOff = { ...(await terminate(app)), sentAtSignal, answer: await slow.answer };
    await slow.written;
    const cutOffStore = await templatesNamed(database, "Cut off");

    // 2. A 16 MB body sent at once gets SIGTERM as soon as its last byte is written: it is answered and stored.
    app = await startOwnApp(database);
    const fast = sendSlowly(app, bigUpload("Arrived", 16 * 1024 * 1024), 1024 * 1024 * 1024);
    await fast.written;
    const arrived = { ...(await terminate(app)), answer: await fast.answer };
    const arrivedStore = await templatesNamed(database, "Arrived");

    console.log(`upload sigterm: ${JSON.stringify({ database: database.url ? "postgres" : "pglite", cutOff, cutOffStore, arrived, arrivedStore, loadAverage: loadavg()[0] })}`);
    expect(cutOff.exitCode, "exit code after SIGTERM mid-body").toBe(0);
    expect(cutOff.sentAtSignal, "bytes of the 48 MB body sent at SIGTERM").toBeLessThan(48 * 1024 * 1024);
    expect(cutOff.answer, "the cut-off upload was not acknowledged").not.toBe(201);
    expect(cutOffStore, "the cut-off upload left nothing").toEqual({ stored: 0, problems: cleanStore });

    expect(arrived.exitCode, "exit code after SIGTERM once the body arrived").toBe(0);
    expect(arrived.answer, "the upload whose body had arrived").toBe(201);
    expect(arrivedStore, "stored once, with its blob").toEqual({ stored: 1, problems: cleanStore });
  } finally {
    await stopOwnApp(app);
    database.destroy();
  }
});

test("SIGKILL of the app on PGlite in the middle of ingest and writes: the restart opens the data directory; what was acknowledged is there", async () => {
  // Skipped on PostgreSQL on purpose: it tests the embedded database's data directory after a
  // SIGKILL; .ci/run runs it in the reliability suite's PGlite pass (npm run test:all).
  test.skip(!!process.env.E2E_DATABASE_URL, "the embedded database's crash test runs in the PGlite run");
  const database = await createOwnDatabase("pglite-sigkill");
  let app: StartedApp | undefined;
  try {
    app = await startOwnApp(database);
    const target = await prepareLoadTarget(app);
    const ledger: EventLedger = { acknowledged: [], refused: [] };
    const credentials: string[] = [];
    const createCredential = async (index: number) => {
      const { outcome, body } = await timedFetch(`${target.base}/api/credentials`, {
        method: "POST",
        headers: { ...target.auth, "Content-Type": "application/json" },
        body: JSON.stringify({ projectId: target.projectId, name: `Crash ${index}` }),
      });
      if (outcome.status === 201) credentials.push((JSON.parse(body) as { id: string }).id);
      return { kind: "write", outcome };
    };
    const stopLoad = new AbortController();
    const load = runOpenLoad(
      [
        { name: "ingest", rate: 20, concurrency: 16, send: () => ingestBatch(target, ledger, 25) },
        { name: "writes", rate: 10, concurrency: 16, send: createCredential },
      ],
      { signal: stopLoad.signal },
    );
    // Killed in the middle: once both kinds of write have been acknowledged a few times, with more on their way.
    try {
      await waitUntil(() => ledger.acknowledged.length >= 10 * 25 && credentials.length >= 5, "10 ingest batches and 5 credentials acknowledged");
      process.kill(-app.child.pid!, "SIGKILL");
    } finally {
      stopLoad.abort();
    }
    const killedAt = Date.now();
    const shots = await load;

    const restarting = Date.now();
    app = await startOwnApp(database);
    const restartMs = Date.now() - restarting;
    const listed = await timedFetch(`${app.baseUrl}/api/credentials?projectId=${target.projectId}`, { headers: { Authorization: `Bearer ${app.token}` } });
    const listedIds = new Set((JSON.parse(listed.body) as { items: { id: string }[] }).items.map((item) => item.id));
    await stopOwnApp(app);

    const stored = await withAppDatabase(database, async (query) => ({ events: await countStored(query, ledger.acknowledged), invariants: await invariantViolations(query) }));
    const figures = {
      answeredBeforeKill: shots.filter((shot) => shot.endedAt < killedAt).length,
      eventsAcknowledged: ledger.acknowledged.length,
      eventsLost: ledger.acknowledged.length - stored.events.stored,
      eventsStoredTwice: stored.events.rows - stored.events.stored,
      credentialsAcknowledged: credentials.length,
      credentialsLost: credentials.filter((id) => !listedIds.has(id)).length,
      restartMs,
      loadAverage: loadavg()[0],
    };
    console.log(`pglite sigkill: ${JSON.stringify(figures)}`);

    expect(listed.outcome.status, "the restarted app lists the credentials").toBe(200);
    expect(figures.eventsAcknowledged, "events acknowledged before the kill").toBeGreaterThan(0);
    expect(figures.credentialsAcknowledged, "credentials acknowledged before the kill").toBeGreaterThan(0);
    expect(figures.eventsLost, "acknowledged events missing after the restart").toBe(0);
    expect(figures.eventsStoredTwice).toBe(0);
    expect(figures.credentialsLost, "acknowledged credentials missing after the restart").toBe(0);
    expect(stored.invariants).toEqual({ productionTemplates: [], sharesPerChannel: [], duplicateEvents: [] });
  } finally {
    await stopOwnApp(app);
    database.destroy();
  }
});
