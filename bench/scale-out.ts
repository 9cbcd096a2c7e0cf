// npm run bench:scale-out – the figures behind docs/operations.md's "beyond one PostgreSQL":
// 1. Storage and analytics: a fresh database filled by COPY with realistic sessions (one
//    project, 30 days) in steps up to BENCH_SIZES' last (100,000, 300,000, 1,000,000); at each step the size of
//    analytics_events (heap, indexes, total) and the time of each analytics query of
//    GET …/analytics (lib/analytics) over the 30-day window and over one day (median of 3).
// 2. Ingest on the scale-out deployment of reliability/scale-out.spec.ts (two `npm start`, two
//    `npm run ingest`, one PostgreSQL, one S3 bucket): bench/ingest.ts against one ingest
//    process, against both, and against both while the 30-day analytics report of a project
//    holding BENCH_REPORT_EVENTS (300,000) events runs in a loop on the same database.
// Loopback only; bounded by the sizes and BENCH_SECONDS. BENCH_ONLY=storage or ingest runs one part.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { sessionRows, type Step, type Tenant } from "@/testing/analytics-sessions";
import { getBreakdown } from "@/testing/oracles/analytics-raw/get-breakdown";
import { getDaily } from "@/testing/oracles/analytics-raw/get-daily";
import { getQuartileFunnel } from "@/testing/oracles/analytics-raw/get-quartile-funnel";
import { getSummary } from "@/testing/oracles/analytics-raw/get-summary";
import type { AnalyticsFilter } from "@/testing/oracles/analytics-raw/sql";
import type { Db } from "@/lib/db";
import { eventRowColumns, toCopyText, type EventRow } from "@/lib/ingest/store-events";
import { createFreshDatabase } from "@/testing/fresh-database";
import { startScaleOutCluster } from "@/testing/scale-out-cluster";
import { random } from "./random";

const serverUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const sizes = (process.env.BENCH_SIZES ?? "100000,300000,1000000").split(",").map(Number);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const reportEvents = Number(process.env.BENCH_REPORT_EVENTS ?? 300_000);
const only = process.env.BENCH_ONLY;
const dayMs = 24 * 3600 * 1000;
const windowEnd = Date.UTC(2026, 10, 1);

// ── realistic events ────────────────────────────────────────────────────────────────────

const pick = <T>(next: () => number, values: readonly T[]) => values[Math.floor(next() * values.length)]!;
const devices = [
  { type: "desktop", os: "Windows", browser: "Chrome" },
  { type: "desktop", os: "macOS", browser: "Safari" },
  { type: "desktop", os: "Windows", browser: "Edge" },
  { type: "mobile", os: "iOS", browser: "Mobile Safari" },
  { type: "mobile", os: "Android", browser: "Chrome" },
  { type: "tablet", os: "iPadOS", browser: "Mobile Safari" },
] as const;
const countries = ["US", "GB", "DE", "FR", "ES", "IT", "NL", "BR", "IN", "JP"] as const;

/**
 * One viewer's session as the player reports it (lib/analytics/definitions.ts): started, played,
 * the quartiles it reached, completed or left, sometimes a pause and a CTA click. ~6 events.
 */
function sessionOf(next: () => number, tenant: Tenant, templateId: string): EventRow[] {
  const reached = next();
  const steps: Step[] = [
    [0, "session.started", null],
    [1, "video.played", 1],
  ];
  if (reached > 0.2) steps.push([6, "video.progressed", 1, { position_ms: 5000, percent: 25 }]);
  if (next() < 0.3) steps.push([7, "video.paused", 1]);
  if (reached > 0.4) steps.push([11, "video.progressed", 1, { position_ms: 10_000, percent: 50 }]);
  if (reached > 0.55) steps.push([16, "video.progressed", 1, { position_ms: 15_000, percent: 75 }]);
  if (reached > 0.65) steps.push([21, "video.completed", 1]);
  else steps.push([21, "video.incomplete", 1, { position_ms: Math.round(reached * 20_000), percent: Math.round(reached * 100) }]);
  if (next() < 0.1) steps.push([22, "cta.clicked", 1]);
  const channel = next() < 0.7 ? "PROD" : next() < 0.67 ? "STAGING" : "DEV";
  return sessionRows(
    tenant,
    {
      sessionId: randomUUID(),
      start: new Date(windowEnd - Math.floor(next() * 30 * dayMs)).toISOString(),
      channel,
      templateId,
      templateVersion: next() < 0.8 ? "1.1" : "1.0",
      device: pick(next, devices),
      country: pick(next, countries),
      viewerHash: null,
    },
    steps,
  );
}

/** COPYs sessions of the tenant into analytics_events until `count` more events are stored. */
async function loadEvents(databaseUrl: string, tenant: Tenant, count: number, seed: number): Promise<void> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const next = random(seed);
  const templateId = randomUUID();
  const writable = await client.unsafe(`copy analytics_events (${eventRowColumns.join(", ")}) from stdin`).writable();
  for (let loaded = 0; loaded < count; ) {
    let rows: EventRow[] = [];
    while (rows.length < 5_000 && loaded + rows.length < count) rows = rows.concat(sessionOf(next, tenant, templateId));
    rows = rows.slice(0, count - loaded);
    loaded += rows.length;
    if (!writable.write(toCopyText(rows))) await new Promise((resolve) => writable.once("drain", resolve));
  }
  await new Promise<void>((resolve, reject) => writable.end((error?: Error | null) => (error ? reject(error) : resolve())));
  await client.unsafe("analyze analytics_events");
  await client.end();
}

// ── analytics query times ───────────────────────────────────────────────────────────────

/** The queries GET …/analytics runs (lib/analytics/get-project-analytics.ts), by name. */
const reportQueries: [string, (db: Db, filter: AnalyticsFilter) => Promise<unknown>][] = [
  ["summary", getSummary],
  ["funnel", getQuartileFunnel],
  ["day", getDaily],
  ...(["channel", "templateVersion", "deviceType", "browser", "country"] as const).map(
    (dimension) => [dimension, (db: Db, filter: AnalyticsFilter) => getBreakdown(db, filter, dimension)] as [string, (db: Db, filter: AnalyticsFilter) => Promise<unknown>],
  ),
];

/** Points this process's own database connection (lib/db) at `databaseUrl`. */
async function openDb(databaseUrl: string): Promise<{ db: Db; close: () => Promise<void> }> {
  process.env.DATABASE_URL = databaseUrl;
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
  const { getDb, closeDb } = await import("@/lib/db");
  return { db: await getDb(), close: closeDb };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Milliseconds of each report query and of the whole report, for the tenant over [windowEnd −
 * days, windowEnd): the median of 3 runs, or 1 run once a query takes more than 2 s.
 */
async function timeReport(db: Db, projectId: string, days: number, runs = 3): Promise<Record<string, number> & { report: number }> {
  const filter: AnalyticsFilter = {
    projectId, from: new Date(windowEnd - days * dayMs), to: new Date(windowEnd),
    channel: null, templateId: null, templateVersion: null, deviceType: null, country: null, granularity: "day",
  };
  const times: Record<string, number> = {};
  for (const [name, query] of reportQueries) {
    const measured: number[] = [];
    do {
      const started = performance.now();
      await query(db, filter);
      measured.push(performance.now() - started);
    } while (measured.length < runs && measured[0]! < 2_000);
    times[name] = median(measured);
  }
  return { ...times, report: Object.values(times).reduce((sum, ms) => sum + ms, 0) };
}

async function measureStorage() {
  const database = await createFreshDatabase(serverUrl, "bench_scale");
  const { db, close } = await openDb(database.url); // applies the migrations
  const tenant = { organizationId: randomUUID(), projectId: randomUUID() };
  // Another project's events beside it, as in a shared database: the report must not read them.
  const other = { organizationId: randomUUID(), projectId: randomUUID() };
  const rows: string[] = [];
  try {
    let loaded = 0;
    for (const [i, size] of sizes.entries()) {
      const started = performance.now();
      const added = size - loaded + Math.round((size - loaded) / 10);
      await loadEvents(database.url, tenant, size - loaded, i + 1);
      await loadEvents(database.url, other, Math.round((size - loaded) / 10), 100 + i);
      const loadEventsPerSecond = Math.round(added / ((performance.now() - started) / 1000));
      loaded = size;
      const sizeClient = postgres(database.url, { max: 1, onnotice: () => {} });
      const [bytes] = await sizeClient`select count(*)::bigint as events,
        pg_relation_size('analytics_events') as heap, pg_indexes_size('analytics_events') as indexes,
        pg_total_relation_size('analytics_events') as total from analytics_events`;
      await sizeClient.end();
      const events = Number(bytes!.events);
      const month = await timeReport(db, tenant.projectId, 30);
      const day = await timeReport(db, tenant.projectId, 1);
      const perMillion = (value: unknown) => ((Number(value) / events) * 1e6) / 1024 / 1024;
      const figures = {
        projectEvents: size,
        tableEvents: events,
        loadEventsPerSecond,
        mbPerMillion: { heap: perMillion(bytes!.heap).toFixed(0), indexes: perMillion(bytes!.indexes).toFixed(0), total: perMillion(bytes!.total).toFixed(0) },
        totalMb: (Number(bytes!.total) / 1024 / 1024).toFixed(0),
        reportMs: { days30: month, days1: day },
      };
      console.log(JSON.stringify(figures));
      rows.push(
        `| ${size.toLocaleString("en-US")} | ${(Number(bytes!.total) / 1024 / 1024).toFixed(0)} MB | ${figures.mbPerMillion.total} MB | ${month.report.toFixed(0)} ms | ${median(Object.values(month).slice(0, -1)).toFixed(0)}–${Math.max(...Object.values(month).slice(0, -1)).toFixed(0)} ms | ${day.report.toFixed(0)} ms |`,
      );
    }
  } finally {
    await close();
    await database.drop();
  }
  console.log(`\n## Storage and analytics (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, PostgreSQL; one project's events over 30 days, another project's tenth beside them)\n`);
  console.log("| the project's events | analytics_events total (heap + indexes) | per million events | 30-day report (8 queries) | one query, median–max | 1-day report |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

// ── ingest on the scale-out deployment ──────────────────────────────────────────────────

type IngestFigures = { servers: number; eventsPerSecond: number; p50: number; p99: number; errors: number; acknowledged: number; stored: number; duplicates: number };

function benchIngest(env: NodeJS.ProcessEnv, urls: string[], databaseUrl: string): Promise<IngestFigures> {
  const run = spawn(process.execPath, ["--import", "tsx", "bench/ingest.ts"], {
    env: { ...env, BENCH_INGEST_URLS: urls.join(","), BENCH_DATABASE_URL: databaseUrl, BENCH_SECONDS: String(seconds) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  run.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    run.once("exit", (code) => (code === 0 ? resolve(JSON.parse(output.trim().split("\n").pop()!) as IngestFigures) : reject(new Error(`bench/ingest.ts exited ${code}:\n${output}`)))),
  );
}

async function measureIngest() {
  const cluster = await startScaleOutCluster({ serverUrl, extraEnv: { INGEST_PROJECT_RATE: "1000000000", INGEST_ADDRESS_RATE: "1000000000" } });
  const results: [string, IngestFigures][] = [];
  try {
    const urls = cluster.ingests.map((ingest) => `http://127.0.0.1:${ingest.port}`);
    results.push(["one `npm run ingest`", await benchIngest(cluster.env, urls.slice(0, 1), cluster.database.url)]);
    results.push(["two `npm run ingest`", await benchIngest(cluster.env, urls, cluster.database.url)]);

    // The same, with a project's 30-day report running in a loop on the same database.
    const tenant = { organizationId: randomUUID(), projectId: randomUUID() };
    await loadEvents(cluster.database.url, tenant, reportEvents, 7);
    const { db, close } = await openDb(cluster.database.url);
    let reports = 0;
    let running = true;
    const reporting = (async () => {
      while (running) {
        await timeReport(db, tenant.projectId, 30, 1);
        reports++;
      }
    })();
    results.push([`two, with ${reportEvents.toLocaleString("en-US")}-event 30-day reports in a loop`, await benchIngest(cluster.env, urls, cluster.database.url)]);
    running = false;
    await reporting;
    await close();
    console.log(`(${reports} 30-day reports ran during that load)`);
  } finally {
    await cluster.stop();
  }
  console.log(`\n## Ingest on the scale-out deployment (${new Date().toISOString().slice(0, 10)}; 64 connections × ${seconds} s, batches of 20, split between the processes)\n`);
  console.log("| ingest processes | durable events/s | p50 ms | p99 ms | errors | acknowledged | stored | duplicates |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [label, r] of results) {
    const count = (n: number) => n.toLocaleString("en-US");
    console.log(`| ${label} | ${count(r.eventsPerSecond)} | ${r.p50} | ${r.p99} | ${r.errors} | ${count(r.acknowledged)} | ${count(r.stored)} | ${r.duplicates} |`);
  }
}

if (only !== "ingest") await measureStorage();
if (only !== "storage") await measureIngest();
process.exit(0);
