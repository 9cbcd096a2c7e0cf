// npm run bench:analytics, the burst part (BENCH_PART=burst runs it alone) – issue 31: a campaign
// send into the built app (`npm start`, one process, PostgreSQL), as a busy customer's would go.
// BENCH_BURST_SESSIONS viewer sessions (default 100,000, ~4.6 events each) over 20 days, batches
// of 40 sessions, 32 connections, ingest limits lifted; then the 20-day report asked for (every second) until it
// is right. Three times in the same run, each on a fresh database: the rollup job off
// (ROLLUP_JOB=0), the baseline for the ingest rate, then on, both as fast as the app takes them;
// then on again with the batches paced at BENCH_BURST_PACE events/s (default 12,000). Prints ingest events/s (on/off ratio), the job's
// lag during the burst (from /api/health), the first report's latency, asOf age and
// pendingEvents, and the time until the report was right. Loopback only; bounded by the sizes.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { createFreshDatabase } from "@/testing/fresh-database";
import { startApp, type StartedApp } from "@/testing/start-app";
import type { Manifest } from "../e2e/wire-events";
import { burstBatches, isRight, pollUntilRight, sendBatches, type Poll } from "../reliability/analytics-burst";

const serverUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const sessions = Number(process.env.BENCH_BURST_SESSIONS ?? 100_000);
const days = 20;
const connections = 32;
const sessionsPerBatch = 40;
const seed = Number(process.env.BENCH_SEED ?? 31);
/** The paced run's rate (BENCH_BURST_PACE): the issue's capacity test sent 12,140 events/s. */
const pacedRate = Number(process.env.BENCH_BURST_PACE ?? 12_000);
const dayMs = 86_400_000;

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

type RunFigures = {
  job: "on" | "off";
  /** Events a second the sender aimed at (0: as fast as the app takes them). */
  pace: number;
  events: number;
  ingestSeconds: number;
  eventsPerSecond: number;
  lagSecondsMax: number | null;
  firstReport: { latencyMs: number; right: boolean; pendingEvents: number; asOfAgeSeconds: number | null };
  secondsToRight: number | null;
  reportLatencyMsP50: number;
};

async function run(job: "on" | "off", paceEventsPerSecond = 0): Promise<RunFigures> {
  const database = await createFreshDatabase(serverUrl, `burst_${job}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-burst-"));
  let app: StartedApp | undefined;
  try {
    app = await startApp({
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      INGEST_PROJECT_RATE: "1000000000",
      INGEST_ADDRESS_RATE: "1000000000",
      ROLLUP_JOB: job === "on" ? "1" : "0",
    });
    const base = app.baseUrl;
    const slug = new URL(app.shareUrl).pathname.split("/").pop()!;
    // A page view mints a token; each has its own rate limit (2,000 events/s): 16 page views' worth.
    const manifests = await Promise.all(Array.from({ length: 16 }, async () => (await (await fetch(`${base}/api/embed/manifest?share=${slug}`)).json()) as Manifest));
    const manifest = manifests[0]!;
    const { bodies, totals } = burstBatches(manifest, { sessions, days, sessionsPerBatch, seed });
    log(`job ${job}: ${bodies.length.toLocaleString("en")} batches, ${totals.events.toLocaleString("en")} events built; sending…`);

    // The job's lag, read from /api/health while the burst goes.
    let lagSecondsMax: number | null = null;
    let sending = true;
    const watching = (async () => {
      while (sending) {
        // A look that fails (a keep-alive connection closed under load) is only a missed sample.
        const health = (await fetch(`${base}/api/health`)
          .then((response) => response.json())
          .catch(() => null)) as { analyticsRollups: { lagSeconds: number } | null } | null;
        if (health?.analyticsRollups) lagSecondsMax = Math.max(lagSecondsMax ?? 0, health.analyticsRollups.lagSeconds);
        await delay(500);
      }
    })();
    const batchesPerSecond = paceEventsPerSecond ? paceEventsPerSecond / (totals.events / bodies.length) : undefined;
    const sent = await sendBatches(manifest.ingest.url, manifests.map((m) => m.ingest.token), bodies, { connections, batchesPerSecond });
    sending = false;
    await watching;
    if (sent.refused > 0 || sent.acknowledged !== totals.events) throw new Error(`job ${job}: ${sent.refused} batches refused, ${sent.acknowledged} of ${totals.events} events acknowledged`);
    log(`job ${job}: ${sent.acknowledged.toLocaleString("en")} events in ${sent.seconds.toFixed(1)} s (${Math.round(sent.eventsPerSecond).toLocaleString("en")}/s)`);

    const todayStart = Math.floor(Date.now() / dayMs) * dayMs;
    const query = `from=${new Date(todayStart - (days - 1) * dayMs).toISOString()}&to=${new Date(todayStart + dayMs).toISOString()}`;
    const ask = async () => {
      const response = await fetch(`${base}/api/Projects/${manifest.projectId}/analytics?${query}`, { headers: { Authorization: `Bearer ${app!.token}` } });
      if (response.status !== 200) throw new Error(`report: ${response.status} ${await response.text()}`);
      return (await response.json()) as Poll["report"];
    };
    const sentAt = Date.now();
    // With the job off the report never becomes complete: one look is its figure.
    const { polls, right } = job === "on" ? await pollUntilRight(ask, totals, { everyMs: 1_000, hangGuardMs: 600_000 }) : { polls: [await timedPoll(ask)], right: false };
    const first = polls[0]!;
    const latencies = polls.map((poll) => poll.latencyMs).sort((a, b) => a - b);
    return {
      job,
      pace: paceEventsPerSecond,
      events: totals.events,
      ingestSeconds: Number(sent.seconds.toFixed(1)),
      eventsPerSecond: Math.round(sent.eventsPerSecond),
      lagSecondsMax: lagSecondsMax === null ? null : Number((lagSecondsMax as number).toFixed(1)),
      firstReport: {
        latencyMs: Math.round(first.latencyMs),
        right: isRight(first.report, totals),
        pendingEvents: first.report.freshness.pendingEvents,
        asOfAgeSeconds: first.report.freshness.asOf ? Number(((first.at - Date.parse(first.report.freshness.asOf)) / 1000).toFixed(1)) : null,
      },
      secondsToRight: right ? Number(((polls.at(-1)!.at - sentAt) / 1000).toFixed(1)) : null,
      reportLatencyMsP50: Math.round(latencies[Math.floor(latencies.length / 2)]!),
    };
  } catch (error) {
    console.error(`job ${job}: the app's last output:\n${app?.output().slice(-3000)}`);
    throw error;
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

async function timedPoll(ask: () => Promise<Poll["report"]>): Promise<Poll> {
  const started = performance.now();
  const report = await ask();
  return { at: Date.now(), latencyMs: performance.now() - started, report };
}

export async function benchBurst(): Promise<void> {
  log(`burst: ${sessions.toLocaleString("en")} sessions over ${days} days, ${connections} connections, batches of ${sessionsPerBatch} sessions, seed ${seed}; load average ${loadavg()[0]!.toFixed(2)}`);
  const off = await run("off");
  const on = await run("on");
  // The same burst at the rate the issue's capacity test reached, below this machine's ceiling.
  const paced = await run("on", pacedRate);
  console.log(`\n| rollup job | sent at | events | ingest s | events/s | lag max s | first report ms | right at once | pendingEvents | asOf age s | s to right |`);
  console.log(`|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|`);
  for (const figures of [off, on, paced]) {
    const { firstReport: first } = figures;
    console.log(
      `| ${figures.job} | ${figures.pace ? `${figures.pace.toLocaleString("en")}/s` : "full speed"} | ${figures.events.toLocaleString("en")} | ${figures.ingestSeconds} | ${figures.eventsPerSecond.toLocaleString("en")} | ${figures.lagSecondsMax ?? "–"} | ${first.latencyMs} | ${first.right ? "yes" : "no"} | ${first.pendingEvents.toLocaleString("en")} | ${first.asOfAgeSeconds ?? "–"} | ${figures.secondsToRight ?? "–"} |`,
    );
  }
  console.log(`\ningest with the job on / off: ${(on.eventsPerSecond / off.eventsPerSecond).toFixed(3)}`);
  console.log(JSON.stringify({ burst: { sessions, days, connections, sessionsPerBatch, seed, off, on, paced, ratio: on.eventsPerSecond / off.eventsPerSecond } }));
}
