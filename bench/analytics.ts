// npm run bench:analytics – the analytics API's queries at scale (issue 16), on raw events.
// 1. Generates a realistic 30-day mix for one project (BENCH_EVENTS events, default 10,000,000:
//    ~5.5 events a session): sessions, plays, quartiles, pauses and completions with watched
//    spans, chapters, CTA clicks, a few errors and autoplay failures, devices, OS, browsers,
//    countries, referrers, channels, template versions, and 3 % bot sessions; COPYs the enriched
//    rows into a fresh PostgreSQL database (created here, dropped at the end unless BENCH_KEEP=1),
//    then ANALYZE.
// 2. Times GET …/analytics (getProjectAnalytics, every query of the report) over 30, 7 and 1
//    days ending with the data, without and with filters, and the heatmap's query: up to
//    BENCH_RUNS runs per case (default 5), stopping early once a case has used
//    BENCH_CASE_SECONDS (default 120); p50 and p99 (the slowest run when there are fewer than 100).
// 3. Checks every case's numbers against what the generator knows it sent.
// Loopback only; bounded by the sizes, the runs and the per-case budget.
import { randomUUID } from "node:crypto";
import os from "node:os";
import postgres from "postgres";
import { getProjectAnalytics } from "@/lib/analytics/get-project-analytics";
import { getHeatmapDeltas } from "@/lib/analytics/raw/get-heatmap-seconds";
import type { AnalyticsQuery } from "@/lib/analytics/schema";
import type { ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { eventRowColumns, toCopyText, type EventRow } from "@/lib/ingest/store-events";
import { createFreshDatabase } from "@/lib/testing/fresh-database";

const serverUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const totalEvents = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const maxRuns = Number(process.env.BENCH_RUNS ?? 5);
const caseSeconds = Number(process.env.BENCH_CASE_SECONDS ?? 120);
const keep = process.env.BENCH_KEEP === "1";
const dayMs = 86_400_000;
const days = 30;
/** The data's last day ends here; windows end here too. */
const windowEnd = Date.UTC(2026, 10, 1);

// ── the generator ────────────────────────────────────────────────────────────────────────

/** A deterministic pseudo-random sequence (mulberry32), so every run loads the same mix. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** One viewer's session as enrichment stores it; every event of it falls on the session's UTC day. */
function sessionRowsOf(next: () => number, projectId: string, templateId: string): EventRow[] {
  const day = Math.floor(next() * days);
  const start = windowEnd - (days - day) * dayMs + Math.floor(next() * (dayMs - 120_000));
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

/** COPYs generated sessions into analytics_events until `count` events are stored (whole sessions: a few more). */
async function load(databaseUrl: string, projectId: string, templateId: string, count: number): Promise<{ events: number; seconds: number }> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const next = random(16);
  const started = performance.now();
  const writable = await client.unsafe(`copy analytics_events (${eventRowColumns.join(", ")}) from stdin`).writable();
  let events = 0;
  while (events < count) {
    let rows: EventRow[] = [];
    while (rows.length < 5_000 && events + rows.length < count) rows = rows.concat(sessionRowsOf(next, projectId, templateId));
    events += rows.length;
    if (!writable.write(toCopyText(rows))) await new Promise((resolve) => writable.once("drain", resolve));
  }
  await new Promise<void>((resolve, reject) => writable.end((error?: Error | null) => (error ? reject(error) : resolve())));
  await client.unsafe("analyze analytics_events");
  await client.end();
  return { events, seconds: (performance.now() - started) / 1000 };
}

// ── the cases ────────────────────────────────────────────────────────────────────────────

type Filters = Pick<AnalyticsQuery, "channel" | "templateVersion" | "deviceType" | "country">;
const noFilters: Filters = { channel: null, templateVersion: null, deviceType: null, country: null };
const cases: { name: string; days: number; filters: Filters }[] = [30, 7, 1].flatMap((windowDays) => [
  { name: `${windowDays} d`, days: windowDays, filters: noFilters },
  { name: `${windowDays} d, PROD mobile`, days: windowDays, filters: { ...noFilters, channel: "PROD" as const, deviceType: "mobile" as const } },
  { name: `${windowDays} d, US 1.1`, days: windowDays, filters: { ...noFilters, country: "US", templateVersion: "1.1" } },
]);

/** The generator's tally over a case's window and filters. */
function expected({ days: windowDays, filters }: (typeof cases)[number]): Record<(typeof tallyNames)[number], number> {
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
  return Object.fromEntries(tallyNames.map((name, i) => [name, sum[i]!])) as Record<(typeof tallyNames)[number], number>;
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

async function main() {
  const database = await createFreshDatabase(serverUrl, "bench_analytics");
  console.log(`bench:analytics – ${totalEvents.toLocaleString("en")} events into ${database.name}; ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB`);
  process.env.DATABASE_URL = database.url;
  const { getDb, closeDb } = await import("@/lib/db");
  let failures = 0;
  try {
    const db: Db = await getDb(); // applies the migrations
    const projectId = randomUUID();
    const templateId = randomUUID();
    const loaded = await load(database.url, projectId, templateId, totalEvents);
    console.log(`loaded ${loaded.events.toLocaleString("en")} events in ${loaded.seconds.toFixed(1)} s (${Math.round(loaded.events / loaded.seconds).toLocaleString("en")}/s, generation included)`);
    const access = { project: { id: projectId, organizationId: projectId, name: "bench" }, role: "Viewer" } as unknown as ProjectAccess;
    const results: string[] = ["| case | report p50 (ms) | report p99 (ms) | runs | heatmap p50 (ms) | numbers |", "|---|---|---|---|---|---|"];
    for (const benchCase of cases) {
      const query: AnalyticsQuery = {
        from: new Date(windowEnd - benchCase.days * dayMs),
        to: new Date(windowEnd),
        templateId: null,
        ...benchCase.filters,
        granularity: benchCase.days <= 2 ? "hour" : "day",
      };
      const report = await timed(() => getProjectAnalytics(db, access, query));
      const heatmap = await timed(() => getHeatmapDeltas(db, { ...query, projectId, templateId }, videoMs));
      const want = expected(benchCase);
      const { summary, excluded, series } = report.last;
      const got = {
        sessions: summary.sessions,
        plays: summary.plays,
        completedPlays: summary.completedPlays,
        ctaClicks: summary.ctaClicks,
        autoplayFailures: summary.autoplayFailures,
        errors: summary.errors,
        heatmapPlays: heatmap.last.plays,
        botEvents: excluded.botEvents,
      };
      const wrong = tallyNames.filter((name) => got[name] !== want[name]);
      const seriesSessions = series.points.reduce((sum, point) => sum + point.sessions, 0);
      if (seriesSessions !== summary.sessions) wrong.push("series" as never);
      if (wrong.length > 0) {
        failures++;
        console.error(`${benchCase.name}: ${wrong.map((name) => `${name} ${got[name as keyof typeof got]} ≠ ${want[name as keyof typeof want]}`).join(", ")}`);
      }
      const line = `| ${benchCase.name} | ${percentile(report.times, 50).toFixed(0)} | ${percentile(report.times, 99).toFixed(0)} | ${report.times.length} | ${percentile(heatmap.times, 50).toFixed(0)} | ${wrong.length === 0 ? `equal (${want.sessions.toLocaleString("en")} sessions)` : "DIFFER"} |`;
      results.push(line);
      console.log(line);
    }
    console.log(`\n${results.join("\n")}`);
  } finally {
    await closeDb();
    if (keep) console.log(`kept ${database.url}`);
    else await database.drop();
  }
  if (failures > 0) {
    console.error(`${failures} case(s) did not report what was sent`);
    process.exitCode = 1;
  }
}

await main();
