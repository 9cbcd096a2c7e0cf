// npm run bench:analytics – the analytics API at scale (issue 16): rollups, with raw events as the baseline.
// 1. Generates a realistic 30-day mix for one project (BENCH_EVENTS events, default 10,000,000:
//    ~6.9 events a session, 1.46 M sessions at 10 M): sessions, plays, quartiles, pauses and completions with watched
//    spans, chapters, CTA clicks, a few errors and autoplay failures, devices, OS, browsers,
//    countries, referrers, channels, template versions, and 3 % bot sessions. Day by day, each
//    day's events in time order, COPYd into a fresh PostgreSQL database (created here, dropped at
//    the end unless BENCH_KEEP=1) in transactions of BENCH_COPY_EVENTS (default 10,000), as group
//    commits store real traffic; the month partitions exist first; then ANALYZE.
// 2. Times the rollup job catching up on all of it (refreshRollups, BENCH_ROLLUP_CHUNK events a
//    chunk, default 100,000) and reports the rollup tables' sizes next to the events'.
// 3. Times GET …/analytics (getProjectAnalytics: a no-op refresh, then every read of the report)
//    and the heatmap's read (readHeatmap) over 30, 7 and 1 days ending with the data, without and
//    with filters: BENCH_RUNS runs per case (default 30), fewer once a case has used
//    BENCH_CASE_SECONDS (default 120); p99 is the slowest run below 100 runs.
// 4. The raw-event baseline in the same run: getProjectAnalyticsRaw and getHeatmapDeltas,
//    BENCH_RAW_RUNS runs (default 1) of the BENCH_RAW_CASES cases (default all; ids like 30d,
//    7d-prod-mobile, 1d-us-1.1; "none" for none), each report cut off after
//    BENCH_RAW_TIMEOUT_SECONDS (default 900).
// 5. Checks every case's numbers, rollups and raw, against what the generator knows it sent.
// 6. (BENCH_PART=burst alone, or after the above) a campaign send into the built app, with the
//    rollup job off and on: bench/analytics-burst.ts.
// Loopback only; bounded by the sizes, the runs, the per-case budget and the raw cap.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { getProjectAnalytics, scopeOf } from "@/lib/analytics/get-project-analytics";
import { getProjectAnalyticsRaw } from "@/testing/oracles/analytics-raw/get-project-analytics-raw";
import { getHeatmapDeltas } from "@/testing/oracles/analytics-raw/get-heatmap-seconds";
import { readHeatmap } from "@/lib/analytics/rollups/read";
import { refreshRollups } from "@/lib/analytics/rollups/refresh";
import type { AnalyticsQuery, ProjectAnalytics } from "@/lib/analytics/contract";
import { sessionActor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import { schema, type Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { eventRowColumns, toCopyText, type EventRow } from "@/lib/ingest/store-events";
import { createFreshDatabase } from "@/testing/fresh-database";
import { benchBurst } from "./analytics-burst";
import { random } from "./random";

const serverUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const totalEvents = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const maxRuns = Number(process.env.BENCH_RUNS ?? 30);
const caseSeconds = Number(process.env.BENCH_CASE_SECONDS ?? 120);
const copyEvents = Number(process.env.BENCH_COPY_EVENTS ?? 10_000);
const rollupChunk = Number(process.env.BENCH_ROLLUP_CHUNK ?? 100_000);
const rawRuns = Number(process.env.BENCH_RAW_RUNS ?? 1);
const rawCapSeconds = Number(process.env.BENCH_RAW_TIMEOUT_SECONDS ?? 900);
const rawCaseIds = process.env.BENCH_RAW_CASES?.split(",").map((id) => id.trim()).filter(Boolean);
const keep = process.env.BENCH_KEEP === "1";
const dayMs = 86_400_000;
const days = 30;
/** The data's last day ends here; windows end here too. */
const windowEnd = Date.UTC(2026, 10, 1);
const dataStart = windowEnd - days * dayMs;

/** A progress line, with the time of day. */
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const int = (value: number) => Math.round(value).toLocaleString("en");

// ── the generator ────────────────────────────────────────────────────────────────────────

/** Picks by weight: [value, weight][]. */
function weighted<T>(next: () => number, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = next() * total;
  for (const [value, weight] of table) if ((roll -= weight) < 0) return value;
  return table.at(-1)![0];
}

type BenchDevice = Readonly<{ type: string; os: string | null; browser: string | null }>;
const devices: readonly (readonly [BenchDevice, number])[] = [
  [Object.freeze({ type: "desktop", os: "Windows", browser: "Chrome" }), 30],
  [Object.freeze({ type: "desktop", os: "Mac OS", browser: "Safari" }), 10],
  [Object.freeze({ type: "desktop", os: "Windows", browser: "Edge" }), 8],
  [Object.freeze({ type: "desktop", os: "Linux", browser: "Firefox" }), 3],
  [Object.freeze({ type: "mobile", os: "iOS", browser: "Mobile Safari" }), 22],
  [Object.freeze({ type: "mobile", os: "Android", browser: "Chrome" }), 20],
  [Object.freeze({ type: "tablet", os: "iOS", browser: "Mobile Safari" }), 5],
  [Object.freeze({ type: "tv", os: "Tizen", browser: "Samsung Internet" }), 1],
  [Object.freeze({ type: "other", os: null, browser: null }), 1],
];
const botDevice: BenchDevice = Object.freeze({ type: "bot", os: null, browser: null });
const countries = [["US", 30], ["GB", 10], ["DE", 9], ["FR", 8], ["BR", 7], ["IN", 7], ["ES", 5], ["IT", 5], ["JP", 4], ["NL", 3], ["CA", 3], ["MX", 3], [null, 6]] as const;
const referrers = [["www.google.com", 30], ["mail.example.com", 25], [null, 20], ["www.linkedin.com", 10], ["t.co", 8], ["news.example.org", 7]] as const;
const channels = [["PROD", 80], ["STAGING", 12], ["DEV", 8]] as const;
const versions = [["1.0", 25], ["1.1", 55], ["2.0", 20]] as const;
const geoOf = new Map(countries.map(([country]) => [country, country ? Object.freeze({ country }) : null]));
const chapters = [
  { id: "intro", name: "Intro", at: 0 },
  { id: "offer", name: "Your offer", at: 8_000 },
  { id: "outro", name: "Next steps", at: 16_000 },
];
const videoMs = 20_000;

/** Sessions, plays, completions, CTA clicks, autoplay failures, errors, plays with spans, bot events. */
type Tally = [number, number, number, number, number, number, number, number];
const tallyNames = ["sessions", "plays", "completedPlays", "ctaClicks", "autoplayFailures", "errors", "heatmapPlays", "botEvents"] as const;

/** What the generator sent, by `day|channel|deviceType|country|templateVersion`. */
const sent = new Map<string, Tally>();

function tally(key: string): Tally {
  let counts = sent.get(key);
  if (!counts) sent.set(key, (counts = [0, 0, 0, 0, 0, 0, 0, 0]));
  return counts;
}

type Base = Omit<EventRow, "event_id" | "event_type" | "occurred_at" | "received_at" | "playback_id" | "payload">;

/**
 * One viewer's session on `day` as enrichment stores it; every event of it falls on that UTC day,
 * so raw events (each on its own time) and rollups (a session on its start's day) agree on every
 * window of whole days. Its viewer key, coalesce(viewer_hash, session_id), is a fresh random one,
 * so every human session is a viewer of its own: unique viewers = sessions, in every scope.
 */
function sessionRowsOf(next: () => number, day: number, projectId: string, templateId: string): EventRow[] {
  const start = dataStart + day * dayMs + Math.floor(next() * (dayMs - 120_000));
  const bot = next() < 0.03;
  const device = bot ? botDevice : weighted(next, devices);
  const country = weighted(next, countries);
  const channel = weighted(next, channels);
  const templateVersion = weighted(next, versions);
  const base: Base = {
    organization_id: projectId,
    project_id: projectId,
    template_id: templateId,
    template_version: templateVersion,
    session_id: randomUUID(),
    viewer_hash: next() < 0.6 ? randomUUID().replaceAll("-", "").padEnd(64, "0") : null,
    referrer_host: weighted(next, referrers),
    consent: { status: "granted" },
    device,
    geo: geoOf.get(country) ?? null,
    share_id: null,
    channel,
    is_bot: bot,
  };
  const rows: EventRow[] = [];
  const add = (seconds: number, eventType: string, playbackId: number | null, payload: Record<string, unknown> = {}) => {
    const at = new Date(start + seconds * 1000).toISOString();
    rows.push({ ...base, event_id: randomUUID(), event_type: eventType, occurred_at: at, received_at: at, playback_id: playbackId, payload });
  };
  const counts = tally(`${day}|${channel}|${device.type}|${country ?? "unknown"}|${templateVersion}`);
  add(0, "session.started", null);
  if (bot) {
    add(1, "video.played", 1, { position_ms: 0 });
    if (next() < 0.3) add(2, "cta.clicked", 1, { cta_id: "book", cta_name: "Book a demo", position_ms: 1000 });
    counts[7] += rows.length;
    return rows;
  }
  counts[0]++;
  if (next() < 0.05) {
    add(1, "autoplay.failed", null, { reason: "NotAllowedError" });
    counts[4]++;
    if (next() < 0.5) return rows;
  }
  if (next() < 0.15) return rows;
  // One play: how far it got, with one pause on the way; a seek sometimes skips a stretch.
  const reachedMs = next() < 0.45 ? videoMs : Math.floor(next() * videoMs);
  const pauseMs = Math.floor(next() * reachedMs);
  add(2, "video.played", 1, { position_ms: 0 });
  counts[1]++;
  // The heatmap counts a play once any of its reports carried a span.
  let spanSent = false;
  let lastSpan: [number, number] = [0, reachedMs];
  if (pauseMs > 0 && next() < 0.3) {
    add(2 + pauseMs / 1000, "video.paused", 1, { position_ms: pauseMs, watched: [[0, pauseMs]] });
    add(4 + pauseMs / 1000, "video.played", 1, { position_ms: pauseMs });
    spanSent = true;
    lastSpan = [pauseMs, reachedMs];
  }
  for (const chapter of chapters) if (chapter.at < reachedMs) add(3 + chapter.at / 1000, "chapter.entered", 1, { chapter_id: chapter.id, chapter_name: chapter.name, position_ms: chapter.at });
  for (const percent of [25, 50, 75] as const) if (reachedMs >= (videoMs * percent) / 100) add(3 + (videoMs * percent) / 100_000, "video.progressed", 1, { position_ms: (videoMs * percent) / 100, percent });
  const end = 6 + reachedMs / 1000;
  const watched = lastSpan[0] < lastSpan[1] ? [lastSpan] : [];
  if (reachedMs === videoMs) {
    add(end, "video.completed", 1, { duration_ms: videoMs, percent: 100, watched });
    counts[2]++;
  } else if (next() < 0.02) {
    add(end, "video.errored", 1, { error_code: "MEDIA_ERR_DECODE" });
    counts[5]++;
    if (spanSent) counts[6]++;
    return rows;
  } else {
    add(end, "video.incomplete", 1, { position_ms: reachedMs, percent: Math.floor((reachedMs * 100) / videoMs), watched });
  }
  if (spanSent || watched.length > 0) counts[6]++;
  if (next() < 0.08) {
    add(end + 1, "cta.clicked", 1, { cta_id: "book", cta_name: "Book a demo", position_ms: reachedMs });
    counts[3]++;
  }
  return rows;
}

// ── loading ──────────────────────────────────────────────────────────────────────────────

/** Makes the month partitions of the data's months, so no row lands in the default partition. */
async function ensurePartitions(client: postgres.Sql): Promise<string[]> {
  const made: string[] = [];
  for (let month = new Date(dataStart); month.getTime() < windowEnd; month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))) {
    const [row] = await client`select analytics_events_ensure_partition(${month.toISOString()}::timestamptz) as name`;
    made.push(row!.name as string);
  }
  return made;
}

/** One transaction's rows streamed into analytics_events; returns the transaction's id. */
async function copyRows(client: postgres.Sql, rows: EventRow[]): Promise<bigint> {
  return client.begin(async (tx) => {
    const [row] = await tx`select pg_current_xact_id()::text as xid`;
    const writable = await tx.unsafe(`copy analytics_events (${eventRowColumns.join(", ")}) from stdin`).writable();
    for (let start = 0; start < rows.length; start += 1_000) {
      if (!writable.write(toCopyText(rows.slice(start, start + 1_000)))) await new Promise((resolve) => writable.once("drain", resolve));
    }
    await new Promise<void>((resolve, reject) => writable.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return BigInt(row!.xid as string);
  });
}

const byTime = (a: EventRow, b: EventRow) => (a.occurred_at < b.occurred_at ? -1 : a.occurred_at > b.occurred_at ? 1 : 0);

/** The load's transactions in order: each one's id and the events stored up to and including it. */
type Transactions = { xid: bigint; events: number }[];

/**
 * Loads `count` events (whole sessions: a few more), day after day, each day's events in time
 * order, one COPY transaction per `copyEvents` of them: so sessions straddle transactions, as
 * they straddle group commits in real traffic, and the rollup job meets them in pieces.
 */
async function load(client: postgres.Sql, projectId: string, templateId: string, count: number): Promise<{ events: number; seconds: number; transactions: Transactions }> {
  const next = random(16);
  const started = performance.now();
  const transactions: Transactions = [];
  let events = 0;
  for (let day = 0; day < days; day++) {
    const target = Math.round((count * (day + 1)) / days);
    const rows: EventRow[] = [];
    while (events + rows.length < target) for (const row of sessionRowsOf(next, day, projectId, templateId)) rows.push(row);
    rows.sort(byTime);
    for (let start = 0; start < rows.length; start += copyEvents) {
      const slice = rows.slice(start, start + copyEvents);
      transactions.push({ xid: await copyRows(client, slice), events: events + start + slice.length });
    }
    events += rows.length;
    const seconds = (performance.now() - started) / 1000;
    log(`day ${day + 1}/${days} loaded: ${int(events)} events, ${int(events / seconds)}/s`);
  }
  return { events, seconds: (performance.now() - started) / 1000, transactions };
}

// ── the rollup job ───────────────────────────────────────────────────────────────────────

type RelationSize = { name: string; rows: number; bytes: number };

async function relationSizes(client: postgres.Sql): Promise<RelationSize[]> {
  const rows = await client`
    select 'analytics_events' as name, (select count(*) from analytics_events)::float8 as rows,
      (select sum(pg_total_relation_size(relid)) from pg_partition_tree('analytics_events'))::float8 as bytes
    union all select 'analytics_daily_rollups', (select count(*) from analytics_daily_rollups), pg_total_relation_size('analytics_daily_rollups')
    union all select 'analytics_hourly_rollups', (select count(*) from analytics_hourly_rollups), pg_total_relation_size('analytics_hourly_rollups')`;
  return rows.map((row) => ({ name: row.name as string, rows: Number(row.rows), bytes: Number(row.bytes) }));
}

/**
 * refreshRollups over the whole load. The job commits its cursor once a chunk; watching it
 * (every second) gives each chunk's time and how many of the load's events lie below it,
 * logged every 30 s.
 */
async function catchUp(db: Db, client: postgres.Sql, transactions: Transactions) {
  const started = performance.now();
  const eventsBelow = (cursor: bigint) => transactions.findLast((transaction) => transaction.xid < cursor)?.events ?? 0;
  const chunks: { seconds: number; events: number }[] = [];
  let last = { at: started, events: 0 };
  let lastLog = started;
  const watch = setInterval(() => {
    void client`select coalesce(max(processed_before), '0')::text as cursor from analytics_rollup_cursors`.then(([row]) => {
      const now = performance.now();
      const events = eventsBelow(BigInt(row!.cursor as string));
      if (events !== last.events) {
        chunks.push({ seconds: (now - last.at) / 1000, events: events - last.events });
        last = { at: now, events };
      }
      if (now - lastLog >= 30_000) {
        lastLog = now;
        const chunk = chunks.at(-1);
        log(
          `rollup job: ${int(events)} events (${((100 * events) / transactions.at(-1)!.events).toFixed(0)} %) in ${((now - started) / 1000).toFixed(0)} s; ` +
            `${chunks.length} chunks, the last ${chunk ? `${chunk.seconds.toFixed(1)} s for ${int(chunk.events)} events` : "not done yet"}`,
        );
      }
    });
  }, 1_000);
  try {
    const result = await refreshRollups(db, { chunkEvents: rollupChunk });
    return { ...result, seconds: (performance.now() - started) / 1000, chunkSeconds: chunks.map((chunk) => chunk.seconds) };
  } finally {
    clearInterval(watch);
  }
}

// ── the cases ────────────────────────────────────────────────────────────────────────────

type Filters = Pick<AnalyticsQuery, "channel" | "templateVersion" | "deviceType" | "country">;
const noFilters: Filters = { channel: null, templateVersion: null, deviceType: null, country: null };
const cases: { id: string; name: string; days: number; filters: Filters }[] = [30, 7, 1].flatMap((windowDays) => [
  { id: `${windowDays}d`, name: `${windowDays} d`, days: windowDays, filters: noFilters },
  { id: `${windowDays}d-prod-mobile`, name: `${windowDays} d, PROD mobile`, days: windowDays, filters: { ...noFilters, channel: "PROD" as const, deviceType: "mobile" as const } },
  { id: `${windowDays}d-us-1.1`, name: `${windowDays} d, US 1.1`, days: windowDays, filters: { ...noFilters, country: "US", templateVersion: "1.1" } },
]);
type Case = (typeof cases)[number];
const rawCases = new Set(!rawCaseIds || rawCaseIds.includes("all") ? cases.map((c) => c.id) : rawCaseIds.filter((id) => id !== "none"));
for (const id of rawCases) if (!cases.some((c) => c.id === id)) throw new Error(`BENCH_RAW_CASES: no case ${id} (cases: ${cases.map((c) => c.id).join(", ")})`);

type Counts = Record<(typeof tallyNames)[number], number>;

/** The generator's tally over a case's window and filters. */
function expected({ days: windowDays, filters }: Case): Counts {
  const sum: Tally = [0, 0, 0, 0, 0, 0, 0, 0];
  for (const [key, counts] of sent) {
    const [day, channel, deviceType, country, version] = key.split("|");
    if (Number(day) < days - windowDays) continue;
    if (filters.channel && channel !== filters.channel) continue;
    if (filters.deviceType && deviceType !== filters.deviceType) continue;
    if (filters.country && country !== filters.country) continue;
    if (filters.templateVersion && version !== filters.templateVersion) continue;
    counts.forEach((value, i) => (sum[i] = sum[i]! + value));
  }
  return Object.fromEntries(tallyNames.map((name, i) => [name, sum[i]!])) as Counts;
}

function queryOf(benchCase: Case): AnalyticsQuery {
  return {
    from: new Date(windowEnd - benchCase.days * dayMs),
    to: new Date(windowEnd),
    templateId: null,
    ...benchCase.filters,
    granularity: benchCase.days <= 2 ? "hour" : "day",
  };
}

/** What a report and a heatmap say, in the tally's terms, and whether its series adds up. */
function countsOf(report: ProjectAnalytics, heatmapPlays: number): { counts: Counts; seriesAddsUp: boolean } {
  const { summary, excluded, series } = report;
  const sessions = series.points.reduce((sum, point) => sum + point.sessions, 0);
  const plays = series.points.reduce((sum, point) => sum + point.plays, 0);
  return {
    counts: {
      sessions: summary.sessions,
      plays: summary.plays,
      completedPlays: summary.completedPlays,
      ctaClicks: summary.ctaClicks,
      autoplayFailures: summary.autoplayFailures,
      errors: summary.errors,
      heatmapPlays,
      botEvents: excluded.botEvents,
    },
    seriesAddsUp: sessions === summary.sessions && plays === summary.plays,
  };
}

/** The names that differ from the tally, as "name got ≠ sent". */
function differences(got: { counts: Counts; seriesAddsUp: boolean }, want: Counts): string[] {
  const wrong = tallyNames.filter((name) => got.counts[name] !== want[name]).map((name) => `${name} ${got.counts[name]} ≠ ${want[name]}`);
  if (!got.seriesAddsUp) wrong.push("series ≠ summary");
  return wrong;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timed<T>(run: () => Promise<T>): Promise<{ times: number[]; last: T }> {
  const times: number[] = [];
  let last: T | undefined;
  const budgetEnds = performance.now() + caseSeconds * 1000;
  do {
    const started = performance.now();
    last = await run();
    times.push(performance.now() - started);
  } while (times.length < maxRuns && performance.now() < budgetEnds);
  return { times: times.sort((a, b) => a - b), last: last as T };
}

/**
 * The raw baseline's own connection: a statement_timeout of the cap, and a watchdog that
 * cancels whatever runs once a whole report has taken the cap (a report is ~15 statements).
 */
async function rawConnection(url: string, admin: postgres.Sql) {
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { statement_timeout: rawCapSeconds * 1000 } });
  const [row] = await client`select pg_backend_pid() as pid`;
  const pid = row!.pid as number;
  const db = drizzle({ client, schema }) as unknown as Db;
  /** The run's result and time, or null when the cap cut it off. */
  const capped = async <T>(run: (db: Db) => Promise<T>): Promise<{ ms: number; result: T } | null> => {
    const started = performance.now();
    const watchdog = setTimeout(() => void admin`select pg_cancel_backend(${pid})`, rawCapSeconds * 1000);
    try {
      const result = await run(db);
      return { ms: performance.now() - started, result };
    } catch (error) {
      if (hasErrorCode(error, "57014") || hasErrorCode((error as { cause?: unknown }).cause, "57014")) return null; // query_canceled
      throw error;
    } finally {
      clearTimeout(watchdog);
    }
  };
  return { capped, close: () => client.end() };
}

const uptime = () => os.loadavg().map((load) => load.toFixed(2)).join(", ");

async function main() {
  const database = await createFreshDatabase(serverUrl, "bench_analytics");
  log(`bench:analytics – ${int(totalEvents)} events into ${database.name}; ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; load average ${uptime()}`);
  process.env.DATABASE_URL = database.url;
  const { getDb, closeDb } = await import("@/lib/db");
  const client = postgres(database.url, { max: 1, onnotice: () => {} });
  let failures = 0;
  try {
    const db: Db = await getDb(); // applies the migrations
    // A real project: the rollup job takes the projects that have events pending.
    const [organization] = await client`insert into organizations (name) values ('Bench') returning id::text as id`;
    const [project] = await client`insert into projects (organization_id, name) values (${organization!.id as string}::uuid, 'Bench') returning id::text as id`;
    const projectId = project!.id as string;
    const templateId = randomUUID();
    log(`partitions: ${(await ensurePartitions(client)).join(", ")}`);
    const loaded = await load(client, projectId, templateId, totalEvents);
    log(`loaded ${int(loaded.events)} events in ${loaded.seconds.toFixed(1)} s (${int(loaded.events / loaded.seconds)}/s, generation included)`);
    const analyzeStarted = performance.now();
    await client`analyze analytics_events`;
    log(`analyze analytics_events: ${((performance.now() - analyzeStarted) / 1000).toFixed(1)} s`);
    const [defaultRows] = await client`select count(*)::int as n from analytics_events_default`;
    if (defaultRows!.n !== 0) log(`warning: ${defaultRows!.n} rows in the default partition`);

    const rolled = await catchUp(db, client, loaded.transactions);
    log(
      `rollup catch-up: ${int(rolled.events)} events, ${int(rolled.sessions)} session reads, ${rolled.chunks} chunks of ≤ ${int(rollupChunk)}, ` +
        `${int(rolled.rows)} cube rows written in ${rolled.seconds.toFixed(1)} s: ${int(rolled.events / rolled.seconds)} events/s`,
    );
    log(`rollup chunks, seconds each (watching the cursor every second: chunks shorter than that merge): ${rolled.chunkSeconds.map((seconds) => seconds.toFixed(1)).join(", ")}`);
    const sizes = await relationSizes(client);
    for (const size of sizes) log(`${size.name}: ${int(size.rows)} rows, ${(size.bytes / 2 ** 20).toFixed(0)} MB`);
    // Autovacuum is off on the bench's server; in production it would vacuum and analyze these tables after such a burst of updates.
    await client`vacuum analyze analytics_daily_rollups, analytics_hourly_rollups`;
    const noop = await timed(() => refreshRollups(db));
    log(`refreshRollups once caught up: p50 ${percentile(noop.times, 50).toFixed(1)} ms over ${noop.times.length} runs`);

    // Unique viewers: every human session has a viewer key of its own (sessionRowsOf), so the exact count is the sessions'; the stored keys confirm it.
    const [viewerKeys] = await client`select count(*)::float8 as sessions, count(distinct coalesce(viewer_hash, session_id))::float8 as viewers
      from analytics_events where event_type = 'session.started' and not is_bot`;
    const keysDistinct = viewerKeys!.sessions === viewerKeys!.viewers;
    log(`viewer keys: ${int(viewerKeys!.viewers)} distinct of ${int(viewerKeys!.sessions)} human sessions${keysDistinct ? "" : " – NOT one per session"}`);
    if (!keysDistinct) failures++;

    // A Viewer's context, made up (the bench's project has no members): what the verb checks and reads.
    const actor = sessionActor({ id: randomUUID(), email: "viewer@bench.example" });
    const access = { project: { id: projectId, organizationId: projectId, name: "bench" }, role: "Viewer", scopes: actor.scopes } as unknown as ProjectAccess;
    const viewer = { db, actor, access };
    type Row = { benchCase: Case; report: number[]; heatmap: number[]; viewersError: number; wrong: string[]; raw?: { report: number | null; heatmap: number | null; wrong: string[] } };
    const rows: Row[] = [];
    for (const benchCase of cases) {
      const query = queryOf(benchCase);
      const scope = { ...scopeOf(projectId, query, query.from, query.to), templateId };
      const report = await timed(() => getProjectAnalytics(viewer, query));
      const heatmap = await timed(() => readHeatmap(db, scope));
      const want = expected(benchCase);
      const wrong = differences(countsOf(report.last, heatmap.last.plays), want);
      const viewersError = want.sessions === 0 ? 0 : (report.last.summary.uniqueViewers - want.sessions) / want.sessions;
      if (wrong.length > 0) {
        failures++;
        log(`${benchCase.name} (rollups): ${wrong.join(", ")}`);
      }
      if (Math.abs(viewersError) > 0.03) log(`${benchCase.name}: unique viewers ${report.last.summary.uniqueViewers} vs ${want.sessions} exact: ${(100 * viewersError).toFixed(2)} % (over 3 %)`);
      rows.push({ benchCase, report: report.times, heatmap: heatmap.times, viewersError, wrong });
      log(`${benchCase.name}: rollup report p50 ${percentile(report.times, 50).toFixed(1)} ms, p99 ${percentile(report.times, 99).toFixed(1)} ms (${report.times.length} runs), heatmap p50 ${percentile(heatmap.times, 50).toFixed(1)} ms`);
    }

    if (rawCases.size > 0) {
      log(`raw baseline: ${[...rawCases].join(", ")}; ${rawRuns} run(s) each, capped at ${rawCapSeconds} s a report`);
      const raw = await rawConnection(database.url, client);
      try {
        for (const row of rows) {
          if (!rawCases.has(row.benchCase.id)) continue;
          const query = queryOf(row.benchCase);
          const reports: (number | null)[] = [];
          const heatmaps: (number | null)[] = [];
          let counts: ReturnType<typeof countsOf> | undefined;
          for (let run = 0; run < rawRuns; run++) {
            const report = await raw.capped((rawDb) => getProjectAnalyticsRaw(rawDb, access, query));
            const heatmap = await raw.capped((rawDb) => getHeatmapDeltas(rawDb, { ...query, projectId, templateId }, videoMs));
            reports.push(report?.ms ?? null);
            heatmaps.push(heatmap?.ms ?? null);
            if (report && heatmap) counts = countsOf(report.result, heatmap.result.plays);
          }
          const median = (times: (number | null)[]) => (times.includes(null) ? null : percentile((times as number[]).sort((a, b) => a - b), 50));
          const wrong = counts ? differences(counts, expected(row.benchCase)) : [];
          if (wrong.length > 0) {
            failures++;
            log(`${row.benchCase.name} (raw): ${wrong.join(", ")}`);
          }
          row.raw = { report: median(reports), heatmap: median(heatmaps), wrong };
          log(`${row.benchCase.name}: raw report ${row.raw.report === null ? `> ${rawCapSeconds} s` : `${int(row.raw.report)} ms`}, raw heatmap ${row.raw.heatmap === null ? `> ${rawCapSeconds} s` : `${int(row.raw.heatmap)} ms`}`);
        }
      } finally {
        await raw.close();
      }
    }

    const ms = (value: number) => (value < 10 ? value.toFixed(1) : int(value));
    const capOr = (value: number | null | undefined) => (value === undefined ? "–" : value === null ? `> ${rawCapSeconds} s` : int(value));
    const table = [
      "| case | rollup p50 (ms) | rollup p99 (ms) | runs | heatmap p50 (ms) | raw report (ms) | raw heatmap (ms) | raw ÷ rollup p50 | unique viewers error | numbers |",
      "|---|---|---|---|---|---|---|---|---|---|",
      ...rows.map(({ benchCase, report, heatmap, viewersError, wrong, raw }) => {
        const ratio = raw?.report ? `${int(raw.report / percentile(report, 50))}×` : "–";
        const numbers = wrong.length > 0 || (raw?.wrong.length ?? 0) > 0 ? "DIFFER" : `equal${raw?.report && raw.heatmap ? ", raw too" : ""} (${int(expected(benchCase).sessions)} sessions)`;
        return `| ${benchCase.name} | ${ms(percentile(report, 50))} | ${ms(percentile(report, 99))} | ${report.length} | ${ms(percentile(heatmap, 50))} | ${capOr(raw?.report)} | ${capOr(raw?.heatmap)} | ${ratio} | ${(100 * viewersError).toFixed(2)} % | ${numbers} |`;
      }),
    ];
    console.log(
      `\n${int(loaded.events)} events (${int(expected(cases[0]!).sessions)} human sessions) loaded in ${loaded.seconds.toFixed(0)} s; ` +
        `rollup catch-up ${rolled.seconds.toFixed(0)} s (${int(rolled.events / rolled.seconds)} events/s, chunks of ${int(rollupChunk)}); ` +
        sizes.map((size) => `${size.name} ${int(size.rows)} rows, ${(size.bytes / 2 ** 20).toFixed(0)} MB`).join("; ") +
        `; load average ${uptime()}\n\n${table.join("\n")}`,
    );
  } finally {
    await client.end();
    await closeDb();
    if (keep) log(`kept ${database.url}`);
    else await database.drop();
  }
  if (failures > 0) {
    console.error(`${failures} check(s) did not report what was sent`);
    process.exitCode = 1;
  }
}

/** BENCH_PART: rollups (the steps above), burst (bench/analytics-burst.ts: a campaign send into the built app), or all (default). */
const part = process.env.BENCH_PART ?? "all";
if (!["rollups", "burst", "all"].includes(part)) throw new Error(`BENCH_PART: rollups, burst or all, not ${part}`);
if (part !== "burst") await main();
if (part !== "rollups") await benchBurst();
