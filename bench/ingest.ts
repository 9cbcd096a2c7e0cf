// npm run bench:ingest – analytics ingest under load: batches of 20 realistic events sent by
// autocannon from this process to servers in child processes (loopback only, bounded in
// time). Durable events/s are counted in the table afterwards, not from acknowledgements.
// Baselines in the same run: a naive handler (one INSERT per event) and the raw storage
// limit (the same rows loaded without HTTP: COPY on PostgreSQL, one-statement inserts on PGlite).
// With BENCH_INGEST_URLS it loads ingest servers that are already running instead (loadRunning).
// BENCH_ONLY=rollups: the standalone server's durable events/s with the analytics rollup job off,
// then on (a process of its own, idle 1 s once caught up, as the app server's job), in the same run.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { freePort } from "@/testing/free-port";
import { mintIngestToken } from "@/lib/tokens/ingest-token";
import type { EventRow } from "@/lib/ingest/store-events";
import type { AnalyticsQuery, ProjectAnalytics } from "@/lib/analytics/contract";
import type { ProjectAccess } from "@/lib/auth/project-access";
import { cpuSeconds, treeRss, waitForOutput } from "./processes";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const serverUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
const secrets = [{ kid: "bench", secret: "bench-secret-0123456789abcdef0123456789" }];
/**
 * The benchmark is one project sending from one address with many tokens, ~50,000 events/s:
 * exactly what the per-project and per-address limits stop, so they are lifted out of its way.
 */
const env = {
  TOKEN_SECRETS: "bench:bench-secret-0123456789abcdef0123456789",
  AUTH_SECRET: "bench-auth-secret-0123456789abcdef0123",
  INGEST_PROJECT_RATE: "1000000000",
  INGEST_ADDRESS_RATE: "1000000000",
};
const batchSize = 20;
/** BENCH_ONLY=standalone/PostgreSQL,raw/PostgreSQL runs just those measurements (rollups: the rollup job off and on). */
const only = process.env.BENCH_ONLY?.split(",");
/** BENCH_CPU_PROF=dir writes a V8 CPU profile of each standalone/naive server (and of the rollup job) into dir. */
const cpuProfileDir = process.env.BENCH_CPU_PROF;

type Store = { label: string; databaseUrl?: string; dataDir?: string; count: (projectId: string) => Promise<number>; drop: () => Promise<void> };
type Result = { server: string; store: string; eventsPerSecond: number; p50: number; p99: number; peakRssMb: number; errors: number; rollups?: RollupFigures };

const eventTypes = ["video.played", "video.progressed", "video.paused", "cta.clicked"] as const;

/** The template the simulated pages play; their tokens name it, as the page manifest's do (no templates row needed). */
const benchTemplate = { id: "7f1d3c1e-4a43-4a43-9c1e-1a2b3c4d5e6f", version: "1.0" };

/**
 * Batches as the SDK sends them: one session's moments with page context. The JSON is written
 * once with placeholders and each request only splices in fresh ids, so the load generator
 * spends its CPU on sending, not on building bodies (it shares the 2 cores with the server).
 */
function batchMaker(organizationId: string, projectId: string): () => string {
  const now = Date.now();
  const events = Array.from({ length: batchSize }, (_, i) => {
    const type = eventTypes[i % eventTypes.length]!;
    const payload =
      type === "video.progressed"
        ? { position_ms: 1000 * i, percent: 25 }
        : type === "cta.clicked"
          ? { cta_id: "book", cta_name: "Book a demo", position_ms: 1000 * i }
          : { position_ms: 1000 * i };
    return {
      event_id: "@event@",
      event_type: type,
      occurred_at: new Date(now + i).toISOString(),
      playback_id: 1,
      payload,
      organization_id: organizationId,
      project_id: projectId,
      template_id: benchTemplate.id,
      template_version: benchTemplate.version,
      session_id: "@session@",
      consent: { status: "granted" },
      referrer_host: "www.example.com",
    };
  });
  const parts = JSON.stringify({ sent_at: new Date(now).toISOString(), events }).split(/@event@|@session@/);
  return () => {
    const sessionId = randomUUID();
    let body = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) body += randomUUID() + parts[i]! + sessionId + parts[i + 1]!;
    return body;
  };
}

async function postgresStore(label: string): Promise<Store> {
  const name = `reelbind_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(`${serverUrl}/postgres`, { max: 1 });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const databaseUrl = `${serverUrl}/${name}`;
  return {
    label,
    databaseUrl,
    count: async (projectId) => {
      const client = postgres(databaseUrl, { max: 1 });
      const [row] = await client`select count(*)::int as n from analytics_events where project_id = ${projectId}`;
      await client.end();
      return row!.n as number;
    },
    drop: async () => {
      const client = postgres(`${serverUrl}/postgres`, { max: 1 });
      await client.unsafe(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function pgliteStore(): Promise<Store> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-ingest-"));
  return {
    label: "PGlite",
    dataDir,
    count: async (projectId) => {
      const { PGlite } = await import("@electric-sql/pglite");
      const db = await PGlite.create(path.join(dataDir, "pglite"));
      const { rows } = await db.query<{ n: number }>("select count(*)::int as n from analytics_events where project_id = $1", [projectId]);
      await db.close();
      return rows[0]!.n;
    },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function startServer(kind: "standalone" | "naive" | "next", store: Store) {
  const dataDir = store.dataDir ?? mkdtempSync(path.join(tmpdir(), "reelbind-bench-ingest-app-"));
  const base = { ...process.env, ...env, DATA_DIR: dataDir, REELBIND_BOOTSTRAP: "0" } as NodeJS.ProcessEnv;
  if (store.databaseUrl) base.DATABASE_URL = store.databaseUrl;
  else delete base.DATABASE_URL;
  if (kind === "next") {
    const port = await freePort();
    // The rollup job off, as in the standalone run: the request path is compared here; what the job
    // costs ingest is measured on its own (BENCH_ONLY=rollups).
    const child = spawn(process.execPath, ["scripts/start.mjs"], { env: { ...base, PORT: String(port), ROLLUP_JOB: "0" }, stdio: ["ignore", "pipe", "inherit"], detached: true });
    // scripts/serve.mjs says so once the app is prepared; a server that never does is not left behind.
    await waitForOutput(child, /is listening on port/, 600_000).catch((error: unknown) => {
      process.kill(-child.pid!, "SIGKILL");
      throw error;
    });
    return { port, pid: child.pid!, stop: () => process.kill(-child.pid!, "SIGTERM"), exited: new Promise((r) => child.once("exit", r)) };
  }
  const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "bench/ingest-server.ts", kind], { env: base, stdio: ["ignore", "pipe", "inherit"] });
  const output = await waitForOutput(child, /"port":\d+/, 120_000);
  return {
    port: (JSON.parse(output.split("\n")[0]!) as { port: number }).port,
    pid: child.pid!,
    stop: () => child.kill("SIGTERM"),
    exited: new Promise((r) => child.once("exit", r)),
  };
}

/** Mints one token per simulated page view, as the page manifest does: the per-token rate limit is for one viewer's page, not for the whole load. */
function mintTokens(organizationId: string, projectId: string, tokenSecrets?: typeof secrets) {
  const page = { organizationId, projectId, templateId: benchTemplate.id, templateVersion: benchTemplate.version };
  return Promise.all(Array.from({ length: 256 }, () => mintIngestToken(page, { secrets: tokenSecrets })));
}

/** Batches of `batch()` POSTed by autocannon to one ingest URL, each with the next token. */
function sendBatches(url: string, tokens: { token: string }[], batch: () => string, options: { connections: number; amount?: number }) {
  let sent = 0;
  return autocannon({
    url: `${url}/analytics/v1/events`,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: seconds }),
    timeout: 30,
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          headers: {
            authorization: `Bearer ${tokens[sent++ % tokens.length]!.token}`,
            "content-type": "application/json",
            "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0",
          },
          body: batch(),
        }),
      },
    ],
  });
}

async function load(server: "standalone" | "naive" | "next", store: Store, { rollupJob = false } = {}): Promise<Result> {
  const organizationId = randomUUID();
  const projectId = randomUUID();
  const tokens = await mintTokens(organizationId, projectId, secrets);
  const madeAt = Date.now();
  const batch = batchMaker(organizationId, projectId);
  const target = await startServer(server, store);
  const job = rollupJob ? await startRollupJob(store.databaseUrl!) : undefined;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(target.pid))), 100);
  try {
    const jobCpuBefore = job ? cpuSeconds(job.pid) : 0;
    const result = await sendBatches(`http://127.0.0.1:${target.port}`, tokens, batch, { connections });
    const jobCpu = job ? cpuSeconds(job.pid) - jobCpuBefore : 0;
    clearInterval(sampler);
    target.stop();
    await target.exited;
    const serverStopped = performance.now();
    const stored = await store.count(projectId);
    let rollups: RollupFigures | undefined;
    if (job) {
      const { rounds, catchUpSeconds } = await job.stop(serverStopped);
      // The batches' events all occur within a few ms of madeAt: the report's whole UTC days hold them.
      const from = new Date(Math.floor(madeAt / dayMs) * dayMs);
      const to = new Date(Math.ceil((madeAt + batchSize + 1) / dayMs) * dayMs);
      rollups = { ...(await checkRollups(store, { organizationId, projectId, from, to })), rounds, catchUpSeconds, jobCpuShare: jobCpu / result.duration, stored };
    }
    return {
      server: rollupJob
        ? "rollup job on: standalone node:http"
        : { standalone: "standalone node:http", naive: "naive handler (INSERT per event)", next: "Next route (npm start)" }[server],
      store: store.label,
      eventsPerSecond: stored / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      peakRssMb: peakRss / 1024 / 1024,
      errors: result.non2xx + result.errors,
      rollups,
    };
  } finally {
    clearInterval(sampler);
  }
}

// ── the rollup job, on and off ───────────────────────────────────────────────────────────

const dayMs = 86_400_000;
/** What the app server's job waits once caught up (lib/analytics/rollups/rollup-loop.ts). */
const rollupIntervalMs = 1_000;

type RollupRound = { events: number; chunks: number; ms: number };
type RollupFigures = {
  rounds: RollupRound[];
  /** From the ingest server's exit to the job's last round's end: how far behind the job was when the load stopped. */
  catchUpSeconds: number;
  /** CPU the job's process used during the load, in cores (its PostgreSQL backend's is not counted). */
  jobCpuShare: number;
  stored: number;
  /** Events a refresh found after the job's last round: 0 when it had caught up. */
  leftOver: number;
  /** Parts of the report where rollups and raw events disagree. */
  differing: string[];
  plays: number;
};

/**
 * BENCH_ROLLUP_JOB=1: this file runs as the rollup job's process: refreshRollups, then 1 s, as
 * the app server's rollup loop does, one JSON line per round. On SIGTERM it rolls up what
 * is committed, then exits.
 */
async function runRollupJob(): Promise<never> {
  const { getDb } = await import("@/lib/db");
  const { refreshRollups } = await import("@/lib/analytics/rollups/refresh");
  const db = await getDb();
  let stopping = false;
  let wake = () => {};
  process.once("SIGTERM", () => {
    stopping = true;
    wake();
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for (;;) {
    const started = performance.now();
    const { events, chunks } = await refreshRollups(db);
    process.stdout.write(`${JSON.stringify({ events, chunks, ms: Math.round(performance.now() - started) })}\n`);
    if (stopping) process.exit(0);
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, rollupIntervalMs);
    });
  }
}

async function startRollupJob(databaseUrl: string) {
  const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "bench/ingest.ts"], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, BENCH_ROLLUP_JOB: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const rounds: RollupRound[] = [];
  let pending = "";
  child.stdout.on("data", (data: Buffer) => {
    pending += data.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith("{\"events\"")) rounds.push(JSON.parse(line) as RollupRound);
  });
  await waitForOutput(child, /"ready":true/, 120_000);
  return {
    pid: child.pid!,
    /** Asks the job to finish rolling up and waits for it; the catch-up counts from `since` (performance.now()). */
    stop: async (since: number) => {
      child.kill("SIGTERM");
      await exited;
      return { rounds, catchUpSeconds: (performance.now() - since) / 1000 };
    },
  };
}

/** After the job: nothing left to roll up, and the rollups' report over whole days equals the raw events'. */
async function checkRollups(store: Store, { organizationId, projectId, from, to }: { organizationId: string; projectId: string; from: Date; to: Date }) {
  const { getDb, closeDb } = await import("@/lib/db");
  const { refreshRollups } = await import("@/lib/analytics/rollups/refresh");
  const { getProjectAnalytics } = await import("@/lib/analytics/get-project-analytics");
  const { sessionActor } = await import("@/lib/auth/authenticate");
  const { getProjectAnalyticsRaw } = await import("@/testing/oracles/analytics-raw/get-project-analytics-raw");
  switchDatabase({ DATABASE_URL: store.databaseUrl });
  const db = await getDb();
  try {
    const leftOver = (await refreshRollups(db)).events;
    // A Viewer's context, made up (the bench's project has no members): what the verb checks and reads.
    const actor = sessionActor({ id: randomUUID(), email: "viewer@bench.example" });
    const access = { project: { id: projectId, organizationId, name: "bench" }, role: "Viewer", scopes: actor.scopes } as unknown as ProjectAccess;
    const query: AnalyticsQuery = { from, to, channel: null, templateId: null, templateVersion: null, deviceType: null, country: null, granularity: "hour" };
    const rollup = await getProjectAnalytics({ db, actor, access }, query);
    const raw = await getProjectAnalyticsRaw(db, access, query);
    const differing = (Object.keys(raw) as (keyof ProjectAnalytics)[]).filter((part) => canonical(rollup[part]) !== canonical(raw[part]));
    return { leftOver, differing, plays: rollup.summary.plays };
  } finally {
    await closeDb();
  }
}

/** JSON with sorted keys and numbers to 12 significant digits: equal reports, equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "number") return Number(item.toPrecision(12));
    if (item && typeof item === "object" && !Array.isArray(item)) return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)));
    return item;
  });
}

/**
 * BENCH_INGEST_URLS mode: ingest servers that are already running (reliability/scale-out.spec.ts,
 * bench/scale-out.ts: `npm run ingest` processes sharing BENCH_DATABASE_URL, with this
 * process's TOKEN_SECRETS), loaded together, the connections split between them. With
 * BENCH_REQUESTS a fixed number of batches, so every one is answered and the count of stored
 * events must equal the acknowledged; else BENCH_SECONDS. Prints the table row and a JSON line.
 */
async function loadRunning(urls: string[], databaseUrl: string) {
  const organizationId = randomUUID();
  const projectId = randomUUID();
  const tokens = await mintTokens(organizationId, projectId);
  const batch = batchMaker(organizationId, projectId);
  const requests = Number(process.env.BENCH_REQUESTS ?? 0);
  const started = performance.now();
  const results = await Promise.all(
    urls.map((url, i) =>
      sendBatches(url, tokens, batch, {
        connections: Math.max(1, Math.floor(connections / urls.length)),
        amount: requests ? Math.floor(requests / urls.length) + (i < requests % urls.length ? 1 : 0) : undefined,
      }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const client = postgres(databaseUrl, { max: 1 });
  const [row] = await client`select count(*)::int as stored, count(distinct event_id)::int as distinct_events
    from analytics_events where project_id = ${projectId}`;
  await client.end();
  const answered = results.reduce((sum, r) => sum + r["2xx"], 0);
  const figures = {
    servers: urls.length,
    connections,
    seconds: Number(elapsed.toFixed(1)),
    batches: results.reduce((sum, r) => sum + r.requests.total, 0),
    acknowledged: answered * batchSize,
    stored: row!.stored as number,
    duplicates: (row!.stored as number) - (row!.distinct_events as number),
    errors: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    eventsPerSecond: Math.round((row!.stored as number) / elapsed),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
  console.log(`| ${urls.length} × npm run ingest | PostgreSQL | ${figures.eventsPerSecond.toLocaleString("en-US")} | ${figures.p50} | ${figures.p99} | – | ${figures.errors} |`);
  console.log(JSON.stringify(figures));
}

/** Points this process's own database connection (used by the raw baselines) elsewhere. */
function switchDatabase(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
}

/** The storage limit: the same rows loaded with COPY, no HTTP, no JSON validation. */
async function rawCopy(store: Store): Promise<Result> {
  const { getDb, closeDb } = await import("@/lib/db");
  switchDatabase({ DATABASE_URL: store.databaseUrl });
  await getDb(); // applies the migrations
  await closeDb();
  const client = postgres(store.databaseUrl!, { max: 1 });
  const projectId = randomUUID();
  const organizationId = randomUUID();
  const rows = 1_000_000; // several seconds, like the loads: a checkpoint falls inside it as it does inside them
  const started = performance.now();
  const writable = await client`copy analytics_events (organization_id, project_id, event_id, event_type, occurred_at, received_at, template_id, template_version, session_id, playback_id, referrer_host, consent, payload, device) from stdin`.writable();
  const now = new Date().toISOString();
  for (let i = 0; i < rows; i += 1000) {
    let chunk = "";
    for (let j = 0; j < 1000; j++) {
      chunk += `${organizationId}\t${projectId}\t${randomUUID()}\tvideo.played\t${now}\t${now}\t7f1d3c1e-4a43-4a43-9c1e-1a2b3c4d5e6f\t1.0\t${randomUUID()}\t1\twww.example.com\t{"status":"granted"}\t{"position_ms":1000}\t{"type":"desktop","os":"Windows","browser":"Chrome"}\n`;
    }
    if (!writable.write(chunk)) await new Promise((r) => writable.once("drain", r));
  }
  await new Promise<void>((resolve, reject) => writable.end((error?: Error | null) => (error ? reject(error) : resolve())));
  const elapsed = (performance.now() - started) / 1000;
  await client.end();
  return { server: "raw COPY, no HTTP", store: store.label, eventsPerSecond: (await store.count(projectId)) / elapsed, p50: 0, p99: 0, peakRssMb: 0, errors: 0 };
}

/** PGlite's storage limit: one-statement inserts of 10,000 rows from this process, no HTTP. */
async function rawPglite(store: Store): Promise<Result> {
  const { getDb, closeDb } = await import("@/lib/db");
  switchDatabase({ DATA_DIR: store.dataDir, DATABASE_URL: undefined });
  const { insertEventRows } = await import("@/lib/ingest/store-events");
  const db = await getDb();
  const projectId = randomUUID();
  const now = new Date().toISOString();
  const row = (): EventRow => ({
    organization_id: projectId, project_id: projectId, event_id: randomUUID(), event_type: "video.played", occurred_at: now, received_at: now,
    template_id: null, template_version: "1.0", session_id: randomUUID(), playback_id: 1, viewer_hash: null, referrer_host: "www.example.com",
    consent: { status: "granted" }, payload: { position_ms: 1000 }, device: { type: "desktop" }, geo: null, share_id: null, channel: null,
    is_bot: false,
  });
  const started = performance.now();
  for (let i = 0; i < 10; i++) await insertEventRows(db, Array.from({ length: 10_000 }, row));
  const elapsed = (performance.now() - started) / 1000;
  await closeDb();
  return { server: "raw one-statement inserts, no HTTP", store: store.label, eventsPerSecond: (await store.count(projectId)) / elapsed, p50: 0, p99: 0, peakRssMb: 0, errors: 0 };
}

async function measure(label: string, make: () => Promise<Store>, run: (store: Store) => Promise<Result>): Promise<Result[]> {
  if (only && !only.includes(label)) return [];
  const store = await make();
  try {
    const result = await run(store);
    console.error(`done: ${label}`);
    return [result];
  } finally {
    await store.drop();
  }
}

if (process.env.BENCH_ROLLUP_JOB === "1") await runRollupJob();

const runningUrls = process.env.BENCH_INGEST_URLS?.split(",").filter(Boolean);
if (runningUrls) {
  if (!process.env.BENCH_DATABASE_URL) throw new Error("BENCH_INGEST_URLS needs BENCH_DATABASE_URL: the database those servers write to.");
  await loadRunning(runningUrls, process.env.BENCH_DATABASE_URL);
  process.exit(0);
}

Object.assign(process.env, env);
const results: Result[] = [];
results.push(...await measure("standalone/PostgreSQL", () => postgresStore("PostgreSQL"), (s) => load("standalone", s)));
results.push(...await measure("naive/PostgreSQL", () => postgresStore("PostgreSQL"), (s) => load("naive", s)));
results.push(...await measure("next/PostgreSQL", () => postgresStore("PostgreSQL"), (s) => load("next", s)));
results.push(...await measure("raw/PostgreSQL", () => postgresStore("PostgreSQL"), rawCopy));
results.push(...await measure("standalone/PGlite", pgliteStore, (s) => load("standalone", s)));
results.push(...await measure("naive/PGlite", pgliteStore, (s) => load("naive", s)));
results.push(...await measure("raw/PGlite", pgliteStore, rawPglite));
const rollupsOff = await measure("rollups", () => postgresStore("PostgreSQL"), (s) => load("standalone", s));
const rollupsOn = await measure("rollups", () => postgresStore("PostgreSQL"), (s) => load("standalone", s, { rollupJob: true }));
if (rollupsOff[0]) rollupsOff[0].server = "rollup job off: standalone node:http";
results.push(...rollupsOff, ...rollupsOn);

console.log(`\n## Ingest (${new Date().toISOString().slice(0, 10)}, Node ${process.version}; ${connections} connections × ${seconds} s, batches of ${batchSize})\n`);
console.log("| server | store | durable events/s | p50 ms | p99 ms | peak RSS | non-2xx + errors |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) {
  const latency = r.p50 ? `${r.p50} | ${r.p99}` : "– | –";
  console.log(`| ${r.server} | ${r.store} | ${Math.round(r.eventsPerSecond).toLocaleString("en-US")} | ${latency} | ${r.peakRssMb ? `${r.peakRssMb.toFixed(0)} MB` : "–"} | ${r.errors} |`);
}
const rate = (server: string, store: string) => results.find((r) => r.server.startsWith(server) && r.store === store)?.eventsPerSecond ?? NaN;
const ratios = [
  `standalone ÷ raw COPY on PostgreSQL: ${(rate("standalone", "PostgreSQL") / rate("raw COPY", "PostgreSQL")).toFixed(2)}`,
  `standalone ÷ naive on PostgreSQL: ${(rate("standalone", "PostgreSQL") / rate("naive", "PostgreSQL")).toFixed(1)}×`,
  `standalone ÷ naive on PGlite: ${(rate("standalone", "PGlite") / rate("naive", "PGlite")).toFixed(1)}×`,
].filter((ratio) => !ratio.includes("NaN"));
if (ratios.length > 0) console.log(`\n${ratios.join("; ")}.`);
const on = rollupsOn[0];
if (rollupsOff[0] && on?.rollups) {
  const { rounds, catchUpSeconds, jobCpuShare, stored, leftOver, differing, plays } = on.rollups;
  const ratio = on.eventsPerSecond / rollupsOff[0].eventsPerSecond;
  const rolled = rounds.reduce((sum, round) => sum + round.events, 0);
  console.log(
    `\nRollup job on ÷ off: ${ratio.toFixed(2)} (the job costs ${(100 * (1 - ratio)).toFixed(1)} % of ingest throughput; goal ≤ 15 %). ` +
      `The job: ${rounds.length} rounds, ${rolled.toLocaleString("en-US")} events rolled up of ${stored.toLocaleString("en-US")} stored, ` +
      `longest round ${Math.max(...rounds.map((round) => round.ms)).toLocaleString("en-US")} ms, ${jobCpuShare.toFixed(2)} cores during the load, ` +
      `caught up ${catchUpSeconds.toFixed(1)} s after the server stopped; a refresh after it found ${leftOver} events; ` +
      `report over whole days (${plays.toLocaleString("en-US")} plays): ${differing.length === 0 ? "rollups equal raw events" : `rollups DIFFER from raw events in ${differing.join(", ")}`}.`,
  );
  if (differing.length > 0 || leftOver > 0 || rolled !== stored) process.exitCode = 1;
}
process.exit(process.exitCode ?? 0);
