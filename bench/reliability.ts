// npm run bench:reliability – the durations docs/reliability.md holds the app to, which the
// reliability suite prints but no longer judges (issue 29):
// 1. Recovery: the built app on a PostgreSQL cluster of its own under the suite's mixed load
//    (25 management requests and 20 ingest batches a second); the cluster is stopped for
//    BENCH_OUTAGE_SECONDS (5) and started again. Recovery is from `pg_ctl start` returning to the
//    app's last 503 (the suite's definition; bound 10 s), and to its first success.
//    Baseline: a fresh connection's first `select 1` after the same start.
// 2. Shutdown: SIGTERM to the app idle, with a 48 MB upload whose body stalls after 8 MB (cut
//    off 5 s after the signal by scripts/serve.mjs), and under ingest load; SIGTERM → exit
//    (bound 10 s) and the exit code. On PGlite, and on a private PostgreSQL cluster.
//    Baseline: the same app's cold start, from spawning `npm start` to its first answered request.
// BENCH_RUNS (3) runs of each; median and max. BENCH_ONLY=recovery or shutdown runs one part.
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import postgres from "postgres";
import { multipartBody } from "@/testing/multipart";
import { startPrivatePostgres, type PrivatePostgres } from "@/testing/private-postgres";
import type { StartedApp } from "@/testing/start-app";
import { ingestBatch, managementRequest, prepareLoadTarget, type EventLedger, type LoadTarget } from "../reliability/mixed-load";
import { runOpenLoad, type Shot } from "../reliability/open-load";
import { startOwnApp, stopOwnApp } from "../reliability/own-app";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const outageMs = Number(process.env.BENCH_OUTAGE_SECONDS ?? 5) * 1000;
const only = process.env.BENCH_ONLY;
const boundMs = 10_000;
const hangGuardMs = 120_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const summary = (values: number[]) => ({ median: median(values), max: Math.max(...values), runs: values });
const print = (label: string, figures: unknown) => console.log(`${label}: ${JSON.stringify(figures)}`);

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (const giveUpAt = Date.now() + hangGuardMs; !(await condition()); await delay(20)) {
    if (Date.now() > giveUpAt) throw new Error(`${what}: not within ${hangGuardMs / 1000} s`);
  }
}

function temporaryDataDir(label: string) {
  return mkdtempSync(path.join(tmpdir(), `reelbind-bench-${label}-`));
}

/** The app on `url` (PostgreSQL) or PGlite in `dataDir`; how long from spawning it to its first answered request (the manifest of its PROD share). */
async function coldStart(dataDir: string, url?: string): Promise<{ app: StartedApp; coldStartMs: number }> {
  const started = Date.now();
  const app = await startOwnApp({ url, dataDir });
  const slug = new URL(app.shareUrl).pathname.split("/").pop()!;
  await until(async () => (await fetch(`${app.baseUrl}/api/embed/manifest?share=${slug}`).catch(() => null))?.status === 200, "first answer");
  return { app, coldStartMs: Date.now() - started };
}

// ── recovery ─────────────────────────────────────────────────────────────────────────

async function recoveryRun(cluster: PrivatePostgres, target: LoadTarget) {
  const ledger: EventLedger = { acknowledged: [], refused: [] };
  const live: Shot[] = [];
  const stop = new AbortController();
  const load = runOpenLoad(
    [
      { name: "management", rate: 25, concurrency: 32, send: (index) => managementRequest(target, index) },
      { name: "ingest", rate: 20, concurrency: 32, send: () => ingestBatch(target, ledger, 25) },
    ],
    { signal: stop.signal, shots: live },
  );
  const ok = (shot: Shot) => typeof shot.outcome.status === "number" && shot.outcome.status < 300;
  await until(() => live.filter(ok).length >= 50, "load before the outage");
  const stopAt = Date.now();
  await cluster.stop();
  await until(() => Date.now() >= stopAt + outageMs && live.some((shot) => shot.outcome.status === 503 && shot.startedAt >= stopAt), "503 while down");
  await cluster.start();
  const backAt = Date.now();
  const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
  await sql`select 1`;
  const databaseReadyMs = Date.now() - backAt;
  await sql.end();
  await until(() => {
    const after = live.filter((shot) => shot.startedAt >= backAt).sort((a, b) => a.endedAt - b.endedAt);
    return after.length >= 50 && after.slice(-50).every(ok);
  }, "recovery");
  stop.abort();
  const shots = await load;
  const after = shots.filter((shot) => shot.startedAt >= backAt && ok(shot));
  const last503 = Math.max(backAt, ...shots.filter((shot) => shot.outcome.status === 503).map((shot) => shot.endedAt));
  return {
    recoveryMs: last503 - backAt,
    firstSuccessMs: Math.min(...after.map((shot) => shot.endedAt)) - backAt,
    databaseReadyMs,
    unavailable: shots.filter((shot) => shot.outcome.status === 503).length,
    /** The 503s that ended after the database was back: when each was sent and answered, ms from `pg_ctl start` returning. */
    late503s: shots
      .filter((shot) => shot.outcome.status === 503 && shot.endedAt > backAt)
      .map((shot) => ({ kind: shot.kind, sentMs: shot.startedAt - backAt, endedMs: shot.endedAt - backAt })),
    failures: shots.filter((shot) => !ok(shot) && shot.outcome.status !== 503).length,
  };
}

async function benchRecovery() {
  const cluster = await startPrivatePostgres();
  const dataDir = temporaryDataDir("recovery");
  const { app, coldStartMs } = await coldStart(dataDir, cluster.url);
  try {
    const target = await prepareLoadTarget(app);
    const results = [];
    for (let run = 0; run < runs; run++) {
      const result = await recoveryRun(cluster, target);
      print(`recovery run ${run + 1}`, { ...result, loadAverage: loadavg()[0] });
      results.push(result);
    }
    const recovery = summary(results.map((r) => r.recoveryMs));
    print("recovery", {
      outageSeconds: outageMs / 1000,
      recoveryMs: recovery,
      withinBound: recovery.max <= boundMs,
      firstSuccessMs: summary(results.map((r) => r.firstSuccessMs)),
      baseline: { databaseReadyMs: summary(results.map((r) => r.databaseReadyMs)), coldStartMs },
      failures: results.reduce((sum, r) => sum + r.failures, 0),
      loadAverage: loadavg()[0],
    });
  } finally {
    await stopOwnApp(app);
    cluster.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ── shutdown ─────────────────────────────────────────────────────────────────────────

/** A 48 MB Raster upload sent at 4 MB/s that stops sending after 8 MB; resolves once those are written. */
async function stalledUpload(app: StartedApp) {
  const video = Buffer.alloc(48 * 1024 * 1024, 0x61);
  video.write("\u0000\u0000\u0000\u0018ftypisom", 0, "latin1");
  const { body, contentType } = multipartBody([
    { name: "name", value: "Bench" },
    { name: "kind", value: "Raster" },
    { name: "videoFile", filename: "big.mp4", content: video, contentType: "video/mp4" },
  ]);
  const req = http.request({
    host: "127.0.0.1",
    port: app.port,
    method: "POST",
    path: `/api/Projects/${app.projectId}/templates/upload`,
    headers: { "Content-Type": contentType, "Content-Length": body.length, Authorization: `Bearer ${app.token}` },
  });
  req.on("error", () => {});
  req.on("response", (res) => res.resume());
  const started = Date.now();
  for (let sent = 0; sent < 8 * 1024 * 1024 && !req.destroyed; ) {
    const end = sent + 64 * 1024;
    if (!req.write(body.subarray(sent, end))) await new Promise((resolve) => req.once("drain", resolve));
    sent = end;
    await delay(Math.max(0, started + (sent / (4 * 1024 * 1024)) * 1000 - Date.now()));
  }
}

async function sigterm(app: StartedApp) {
  const started = Date.now();
  const exitCode = await Promise.race([app.stop(), delay(hangGuardMs, "still running")]);
  return { shutdownMs: Date.now() - started, exitCode };
}

async function benchShutdown(database: "pglite" | "postgres") {
  const cases = { idle: [] as number[], stalledUpload: [] as number[], ingestLoad: [] as number[] };
  const coldStarts: number[] = [];
  const exitCodes: unknown[] = [];
  for (let run = 0; run < runs; run++) {
    for (const scenario of Object.keys(cases) as (keyof typeof cases)[]) {
      const cluster = database === "postgres" ? await startPrivatePostgres() : undefined;
      const dataDir = temporaryDataDir("shutdown");
      const { app, coldStartMs } = await coldStart(dataDir, cluster?.url);
      coldStarts.push(coldStartMs);
      try {
        let load: Promise<unknown> | undefined;
        const stop = new AbortController();
        if (scenario === "stalledUpload") await stalledUpload(app);
        if (scenario === "ingestLoad") {
          const target = await prepareLoadTarget(app);
          const ledger: EventLedger = { acknowledged: [], refused: [] };
          load = runOpenLoad([{ name: "ingest", rate: 20, concurrency: 16, send: () => ingestBatch(target, ledger, 25) }], { signal: stop.signal });
          await until(() => ledger.acknowledged.length >= 250, "ingest acknowledged");
        }
        const { shutdownMs, exitCode } = await sigterm(app);
        stop.abort();
        await load;
        cases[scenario].push(shutdownMs);
        exitCodes.push(exitCode);
        print(`shutdown run ${run + 1}`, { database, scenario, shutdownMs, exitCode, coldStartMs, loadAverage: loadavg()[0] });
      } finally {
        await stopOwnApp(app);
        cluster?.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  const all = Object.values(cases).flat();
  print(`shutdown ${database}`, {
    shutdownMs: Object.fromEntries(Object.entries(cases).map(([scenario, values]) => [scenario, summary(values)])),
    withinBound: Math.max(...all) <= boundMs,
    exitCodes: [...new Set(exitCodes)],
    baseline: { coldStartMs: summary(coldStarts) },
    loadAverage: loadavg()[0],
  });
}

console.log(`bench:reliability – ${runs} runs each, ${new Date().toISOString()}, load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
if (!only || only === "recovery") await benchRecovery();
if (!only || only === "shutdown") {
  await benchShutdown("pglite");
  await benchShutdown("postgres");
}
process.exit(0);
